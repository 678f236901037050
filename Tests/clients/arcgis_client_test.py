"""The `arcgis` package (ArcGIS API for Python) against `maprules serve --tls`.

Usage: python arcgis_client_test.py https://127.0.0.1:PORT/arcgis

Prints one `PASS name` or `FAIL name: why` line per check (run_clients.sh counts them) and exits
non-zero when a check failed. The server must be fresh (`--database :memory:`): counts are compared
with the sample files.
"""
import json
import sys
import traceback
import uuid

BASE = sys.argv[1].rstrip("/")
failures = 0


def check(name, fn):
    global failures
    try:
        result = fn()
        if result is False:
            raise AssertionError("returned False")
        print(f"PASS {name}", flush=True)
        return result
    except Exception as error:  # noqa: BLE001 - every failure is reported, then the next check runs
        failures += 1
        detail = "".join(traceback.format_exception_only(type(error), error)).strip().replace("\n", " ")
        print(f"FAIL {name}: {detail[:400]}", flush=True)
        return None


def expect(condition, message):
    if not condition:
        raise AssertionError(message)


from arcgis.gis import GIS  # noqa: E402
from arcgis.features import FeatureLayer, FeatureLayerCollection  # noqa: E402
from arcgis.features._version import VersionManager  # noqa: E402

TREES = f"{BASE}/rest/services/TreesOfPortland/FeatureServer"
DAMAGE = f"{BASE}/rest/services/DamageAssessment"


def sign_in():
    gis = GIS(BASE, "editor01", "sample-editor01", verify_cert=False)
    expect(gis.users.me is not None and gis.users.me.username == "editor01", f"signed in as {gis.users.me}")
    return gis


gis = check("sign in to the portal as editor01 (OAuth sign-in pages, HTTPS)", sign_in)
if gis is None:
    print("FAIL the remaining arcgis checks need a signed-in GIS")
    sys.exit(1)


def wrong_password():
    try:
        GIS(BASE, "editor01", "not-the-password", verify_cert=False)
    except Exception as error:  # the client raises on a refused sign-in
        expect("invalid" in str(error).lower() or "login" in str(error).lower(), f"unexpected error {error}")
        return True
    raise AssertionError("a wrong password signed in")


check("a wrong password is refused", wrong_password)


def portal_web_maps():
    items = gis.content.search("TreesOfPortland", item_type="Web Map")
    expect(len(items) == 1, f"search found {items}")
    item = gis.content.get(items[0].id)
    data = item.get_data()
    urls = [layer["url"] for layer in data["operationalLayers"] if "url" in layer]
    expect(urls and all(url.startswith(BASE + "/rest/services/TreesOfPortland/") for url in urls),
           f"layer urls not rewritten to this server: {urls}")
    return True


check("portal: search and open the TreesOfPortland web map (URLs point here)", portal_web_maps)

trees = FeatureLayer(f"{TREES}/0", gis=gis)


def query_all():
    expected = len(json.load(open("Samples/TreesOfPortland/features/0.json"))["features"])
    features = trees.query(where="1=1", out_fields="*").features
    expect(len(features) == expected, f"{len(features)} trees, expected {expected}")
    expect(trees.query(where="1=1", return_count_only=True) == expected, "count differs")
    expect(all(f.geometry and "x" in f.geometry for f in features), "a tree without point geometry")
    return True


check("query a layer (every tree, count, geometries)", query_all)


def query_where():
    good = trees.query(where="Condition = 'Good'", out_fields="OBJECTID,Condition", return_geometry=False).features
    expect(good and all(f.attributes["Condition"] == "Good" for f in good), "where not applied")
    projected = trees.query(where="1=1", out_sr=4326, result_record_count=1).features[0].geometry
    expect(-180 <= projected["x"] <= 180 and -90 <= projected["y"] <= 90, f"not WGS84: {projected}")
    return True


check("query with where, outFields, outSR and paging", query_where)

def collection_and_related():
    flc = FeatureLayerCollection(TREES, gis=gis)
    expect([layer.properties.name for layer in flc.layers] == ["Trees", "Neighborhoods"], "layers")
    expect([table.properties.name for table in flc.tables] == ["Species", "Inspections"], "tables")
    related = trees.query_related_records("1", "0", out_fields="*")
    groups = related["relatedRecordGroups"]
    expect(len(groups) == 1 and len(groups[0]["relatedRecords"]) == 1, f"related: {groups}")
    return True


check("FeatureLayerCollection layers and tables; query_related_records", collection_and_related)

state = {}


def add():
    template = trees.query(where="1=1", result_record_count=1).features[0]
    result = trees.edit_features(adds=[{
        "attributes": {"Address": "1 Client Test St", "Condition": "Good", "Species_ID": template.attributes["Species_ID"], "DBH": 3},
        "geometry": template.geometry,
    }])
    added = result["addResults"][0]
    expect(added["success"], f"add failed: {added}")
    state["oid"] = added["objectId"]
    found = trees.query(object_ids=str(state["oid"])).features
    expect(len(found) == 1 and found[0].attributes["Address"] == "1 Client Test St", "added tree not found")
    return True


def update():
    result = trees.edit_features(updates=[{"attributes": {"OBJECTID": state["oid"], "DBH": 7}}])
    expect(result["updateResults"][0]["success"], f"update failed: {result}")
    expect(trees.query(object_ids=str(state["oid"])).features[0].attributes["DBH"] == 7, "update not visible")
    return True


def delete():
    before = trees.query(where="1=1", return_count_only=True)
    result = trees.edit_features(deletes=str(state["oid"]))
    expect(result["deleteResults"][0]["success"], f"delete failed: {result}")
    expect(trees.query(where="1=1", return_count_only=True) == before - 1, "delete not visible")
    return True


check("edit_features: add", add)
check("edit_features: update", update)
check("edit_features: delete", delete)


def versioning():
    vm = VersionManager(f"{DAMAGE}/VersionManagementServer", gis)
    expect(vm.properties["defaultVersionName"] == "sde.DEFAULT", f"root: {vm.properties}")
    name = "clienttest_" + uuid.uuid4().hex[:8]
    created = vm.create(name, "public", "arcgis client test")
    qualified = created["versionInfo"]["versionName"]
    expect(qualified.lower() == f"editor01.{name}".lower(), f"created {qualified}")
    damage = FeatureLayer(f"{DAMAGE}/FeatureServer/0", gis=gis)
    default_before = damage.query(where="1=1", return_count_only=True)
    version = vm.get(qualified, "edit")
    expect(version is not None, "version not listed")
    with version:
        expect(version.properties.isBeingEdited, "startEditing did not lock the version")
        result = version.edit(damage, adds=[{
            "attributes": {"placename": "arcgis client test", "typdamage": "Minor", "primcause": "Hail", "numstories": 1},
            "geometry": {"x": -88.16, "y": 41.78, "spatialReference": {"wkid": 4326}},
        }])
        expect(result["addResults"][0]["success"], f"edit in version failed: {result}")
        in_version = damage.query(where="1=1", return_count_only=True, gdb_version=qualified)
        in_default = damage.query(where="1=1", return_count_only=True)
        expect(in_version == default_before + 1 and in_default == default_before,
               f"version {in_version}, DEFAULT {in_default}, before {default_before}")
        reconciled = version.reconcile()
        expect(reconciled["success"] and not reconciled["hasConflicts"], f"reconcile: {reconciled}")
        expect(version.post() is True, "post failed")
    expect(damage.query(where="1=1", return_count_only=True) == default_before + 1, "posted edit not in DEFAULT")
    expect(not version.properties.isLocked, "version still locked after the with block")
    expect(version.delete() is True, "delete failed")
    names = [info["versionName"].lower() for info in vm.search()["versions"]]
    expect(qualified.lower() not in names, f"version still listed: {names}")
    return True


check("VersionManager: create, edit with gdbVersion/sessionID, reconcile, post, delete", versioning)


def delete_after_editing():
    # Without a `with` block: stop_editing leaves the read session open, and delete() sends its sessionId
    # (issue 11: this ended "Unable to delete the version.").
    vm = VersionManager(f"{DAMAGE}/VersionManagementServer", gis)
    name = "clientdelete_" + uuid.uuid4().hex[:8]
    qualified = vm.create(name, "private", "arcgis client delete test")["versionInfo"]["versionName"]
    damage = FeatureLayer(f"{DAMAGE}/FeatureServer/0", gis=gis)
    version = vm.get(qualified)
    expect(version is not None, "version not listed")
    expect(version.start_editing() is True, "start_editing failed")
    result = version.edit(damage, adds=[{
        "attributes": {"placename": "arcgis client delete test", "typdamage": "Minor", "primcause": "Hail", "numstories": 1},
        "geometry": {"x": -88.16, "y": 41.78, "spatialReference": {"wkid": 4326}},
    }])
    expect(result["addResults"][0]["success"], f"edit in version failed: {result}")
    expect(version.stop_editing(True) is True, "stop_editing(True) failed")
    expect(version.properties.isBeingRead, "the read session is expected to remain open")
    deleted = version.delete()
    expect(deleted is True, f"delete failed: {deleted}")
    names = [info["versionName"].lower() for info in vm.search()["versions"]]
    expect(qualified.lower() not in names, f"version still listed: {names}")
    return True


check("VersionManager: get, start_editing, edit, stop_editing(True), delete", delete_after_editing)

sys.exit(1 if failures else 0)
