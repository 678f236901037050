#!/usr/bin/env python3
"""Generate the two MapRules reference datasets (invented but plausible data).

    python3 Samples/generate_samples.py          # rewrites Samples/TreesOfPortland and Samples/DamageAssessment
    python3 Samples/generate_samples.py --check  # regenerates in memory and fails if the files on disk differ
    bash Samples/embed.sh                        # then: the copy built into `maprules` (serve with no DIR)

Python 3 standard library only; fully deterministic (fixed seeds, no clock, no uuid4), so running it twice
produces byte-identical files. Each sample folder holds:

    <Name>.json            web map (item data, version 2.28)
    <Name>.services.json   services snapshot: normalised URL -> feature service / layer JSON
    features/<n>.json      rows of layer or table <n> as an Esri JSON FeatureSet (WGS84 geometry)
"""

import json
import math
import os
import random
import sys
import uuid
from datetime import datetime, timedelta, timezone

HERE = os.path.dirname(os.path.abspath(__file__))
HOST = "https://maprules.example.com/arcgis/rest/services"
CURRENT_VERSION = 11.1
WEB_MERCATOR = {"wkid": 102100, "latestWkid": 3857}
WGS84 = {"wkid": 4326}


# ---------------------------------------------------------------------------------------------------------
# helpers

def epoch_ms(y, mo, d, h=0, mi=0, s=0):
    return int(datetime(y, mo, d, h, mi, s, tzinfo=timezone.utc).timestamp() * 1000)


def ms_plus(ms, **kw):
    return ms + int(timedelta(**kw).total_seconds() * 1000)


def ms_to_dt(ms):
    return datetime.fromtimestamp(ms / 1000, tz=timezone.utc)


def guid(rng):
    return "{" + str(uuid.UUID(int=rng.getrandbits(128), version=4)).upper() + "}"


def to_mercator(lon, lat):
    x = lon * 20037508.342789244 / 180.0
    y = math.log(math.tan((90.0 + lat) * math.pi / 360.0)) * 6378137.0
    return x, y


def extent_of(points, pad=0.0):
    xs = [to_mercator(lon, lat)[0] for lon, lat in points]
    ys = [to_mercator(lon, lat)[1] for lon, lat in points]
    return {
        "xmin": round(min(xs) - pad, 4), "ymin": round(min(ys) - pad, 4),
        "xmax": round(max(xs) + pad, 4), "ymax": round(max(ys) + pad, 4),
        "spatialReference": dict(WEB_MERCATOR),
    }


def signed_area(ring):
    return sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in zip(ring, ring[1:])) / 2.0


def point_in_ring(x, y, ring):
    inside = False
    for (x1, y1), (x2, y2) in zip(ring, ring[1:]):
        if (y1 > y) != (y2 > y) and x < (x2 - x1) * (y - y1) / (y2 - y1) + x1:
            inside = not inside
    return inside


def distance_to_ring(x, y, ring):
    best = float("inf")
    for (x1, y1), (x2, y2) in zip(ring, ring[1:]):
        dx, dy = x2 - x1, y2 - y1
        t = max(0.0, min(1.0, ((x - x1) * dx + (y - y1) * dy) / (dx * dx + dy * dy)))
        best = min(best, math.hypot(x - (x1 + t * dx), y - (y1 + t * dy)))
    return best


# ---------------------------------------------------------------------------------------------------------
# field builders (service metadata)

def f_oid(name="OBJECTID", alias="OBJECTID"):
    return {"name": name, "type": "esriFieldTypeOID", "alias": alias, "nullable": False, "editable": False,
            "domain": None, "defaultValue": None}


def f_globalid(name="GlobalID", alias="GlobalID"):
    return {"name": name, "type": "esriFieldTypeGlobalID", "alias": alias, "length": 38, "nullable": False,
            "editable": False, "domain": None, "defaultValue": None}


def f_guid(name, alias, nullable=True):
    return {"name": name, "type": "esriFieldTypeGUID", "alias": alias, "length": 38, "nullable": nullable,
            "editable": True, "domain": None, "defaultValue": None}


def f_string(name, alias, length, nullable=True, editable=True, domain=None, default=None):
    return {"name": name, "type": "esriFieldTypeString", "alias": alias, "length": length,
            "nullable": nullable, "editable": editable, "domain": domain, "defaultValue": default}


def f_num(name, alias, ftype, nullable=True, editable=True, domain=None, default=None):
    return {"name": name, "type": "esriFieldType" + ftype, "alias": alias, "nullable": nullable,
            "editable": editable, "domain": domain, "defaultValue": default}


def f_date(name, alias, nullable=True, editable=True):
    return {"name": name, "type": "esriFieldTypeDate", "alias": alias, "nullable": nullable,
            "editable": editable, "domain": None, "defaultValue": None}


def editor_tracking_fields():
    return [
        f_string("created_user", "Created By", 255, nullable=True, editable=False),
        f_date("created_date", "Created Date", nullable=True, editable=False),
        f_string("last_edited_user", "Last Edited By", 255, nullable=True, editable=False),
        f_date("last_edited_date", "Last Edited Date", nullable=True, editable=False),
    ]


EDIT_FIELDS_INFO = {"creationDateField": "created_date", "creatorField": "created_user",
                    "editDateField": "last_edited_date", "editorField": "last_edited_user"}
EDITOR_TRACKING = set(EDIT_FIELDS_INFO.values())


def coded(name, pairs):
    return {"type": "codedValue", "name": name, "description": "",
            "codedValues": [{"name": n, "code": c} for c, n in pairs],
            "mergePolicy": "esriMPTDefaultValue", "splitPolicy": "esriSPTDefaultValue"}


def range_domain(name, lo, hi):
    return {"type": "range", "name": name, "description": "", "range": [lo, hi],
            "mergePolicy": "esriMPTDefaultValue", "splitPolicy": "esriSPTDefaultValue"}


def relationship(rid, name, related, role, key):
    return {"id": rid, "name": name, "relatedTableId": related, "cardinality": "esriRelCardinalityOneToMany",
            "role": role, "keyField": key, "composite": False}


ADVANCED_QUERY = {
    "supportsPagination": True, "supportsOrderBy": True, "supportsStatistics": True,
    "supportsDistinct": True, "supportsQueryWithResultType": True, "supportsReturningQueryExtent": True,
    "supportsQueryRelatedPagination": True, "supportsQueryAttachments": True,
}


def layer_json(*, lid, name, description, geometry_type, fields, display_field, capabilities,
               has_attachments, relationships, templates, edit_fields_info, extent, versioned, drawing_info,
               last_edit):
    is_table = geometry_type is None
    d = {"currentVersion": CURRENT_VERSION, "id": lid, "name": name,
         "type": "Table" if is_table else "Feature Layer", "description": description,
         "copyrightText": "Invented sample data for MapRules; not real records."}
    if not is_table:
        d["geometryType"] = geometry_type
    d.update({"parentLayer": None, "subLayers": [], "minScale": 0, "maxScale": 0})
    if not is_table:
        d["drawingInfo"] = drawing_info
        d["defaultVisibility"] = True
        d["extent"] = extent
    d.update({
        "editingInfo": {"lastEditDate": last_edit},
        "hasAttachments": has_attachments,
        "htmlPopupType": "esriServerHTMLPopupTypeAsHTMLText",
        "objectIdField": fields[0]["name"],
        "globalIdField": next(f["name"] for f in fields if f["type"] == "esriFieldTypeGlobalID"),
        "displayField": display_field,
        "typeIdField": None,
        "fields": fields,
        "relationships": relationships,
        # Sync enabled on both services (as a publisher does for field crews): every layer lists it.
        "capabilities": capabilities + ",Sync",
        "maxRecordCount": 2000,
        "supportedQueryFormats": "JSON, geoJSON, PBF",
        "advancedQueryCapabilities": dict(ADVANCED_QUERY),
        "isDataVersioned": versioned,
        "isDataBranchVersioned": versioned,
        "supportsApplyEditsWithGlobalIds": True,
        "supportsRollbackOnFailureParameter": True,
        "editFieldsInfo": edit_fields_info,
        "ownershipBasedAccessControlForFeatures": None,
        "types": [],
        "templates": templates,
    })
    if not is_table:
        d.update({"hasZ": False, "hasM": False, "allowGeometryUpdates": True,
                  "spatialReference": dict(WEB_MERCATOR)})
    return d


# What `maprules serve` supports for replicas (ServiceCore.syncCapabilities): the committed snapshot says the same.
SYNC_CAPABILITIES = {
    "supportsAsync": False, "supportsRegisteringExistingData": True, "supportsSyncDirectionControl": True,
    "supportsPerLayerSync": True, "supportsPerReplicaSync": True, "supportsRollbackOnFailure": True,
    "supportsAttachmentsSyncDirection": False, "supportsSyncModelNone": False, "supportsBiDirectionalSyncForServer": True,
}


def service_root(*, description, capabilities, layers, tables, versioned, full_extent):
    return {
        "currentVersion": CURRENT_VERSION,
        "serviceDescription": description,
        "hasVersionedData": versioned,
        "supportsDisconnectedEditing": True,
        "syncEnabled": True,
        "syncCapabilities": dict(SYNC_CAPABILITIES),
        "supportedQueryFormats": "JSON, geoJSON, PBF",
        "maxRecordCount": 2000,
        "capabilities": capabilities + ",Sync",
        "description": description,
        "copyrightText": "Invented sample data for MapRules; not real records.",
        "spatialReference": dict(WEB_MERCATOR),
        "initialExtent": full_extent,
        "fullExtent": full_extent,
        "allowGeometryUpdates": True,
        "units": "esriMeters",
        "supportsApplyEditsWithGlobalIds": True,
        "layers": layers,
        "tables": tables,
    }


# ---------------------------------------------------------------------------------------------------------
# pop-up builders (web map)

def field_info(field, label, *, visible, editable, tooltip="", textarea=False, fmt=None):
    fi = {"fieldName": field["name"], "label": label, "tooltip": tooltip, "visible": visible,
          "isEditable": editable}
    if field["type"] == "esriFieldTypeString":
        fi["stringFieldOption"] = "textarea" if textarea else "textbox"
    if fmt is not None:
        fi["format"] = fmt
    elif field["type"] == "esriFieldTypeDate":
        fi["format"] = {"dateFormat": "shortDate"}
    elif field["type"] == "esriFieldTypeDouble":
        fi["format"] = {"places": 1, "digitSeparator": True}
    elif field["type"] in ("esriFieldTypeSmallInteger", "esriFieldTypeInteger"):
        fi["format"] = {"places": 0, "digitSeparator": True}
    return fi


def build_field_infos(fields, spec):
    """spec: field name -> dict(label, visible, editable, tooltip, textarea). Order of spec = pop-up order;
    fields not in spec (OID, GlobalID, editor tracking) are appended hidden and read-only."""
    by_name = {f["name"]: f for f in fields}
    out = []
    for name, s in spec.items():
        f = by_name[name]
        out.append(field_info(f, s.get("label", f["alias"]), visible=s.get("visible", True),
                              editable=s.get("editable", False), tooltip=s.get("tooltip", ""),
                              textarea=s.get("textarea", False), fmt=s.get("format")))
    for f in fields:
        if f["name"] not in spec:
            out.append(field_info(f, f["alias"], visible=False, editable=False))
    return out


def popup(title, field_infos, *, attachments, relationships=(), order_by=None):
    elements = [{"type": "fields"}]
    if attachments:
        elements.append({"type": "attachments", "displayType": "auto"})
    for rid, rtitle in relationships:
        elements.append({"type": "relationship", "relationshipId": rid, "title": rtitle, "description": "",
                         "displayCount": 3, "displayType": "list", "orderByFields": []})
    rri = {"showRelatedRecords": True}
    if order_by:
        rri["orderByFields"] = order_by
    return {"title": title, "description": None, "fieldInfos": field_infos, "popupElements": elements,
            "expressionInfos": [], "showAttachments": bool(attachments), "relatedRecordsInfo": rri,
            "mediaInfos": []}


def form_info(title, description, *, expressions, elements):
    """A layer's form (formInfo, forms.md): expressions as (name, title, returnType, source)."""
    return {"title": title, "description": description,
            "expressionInfos": [{"name": n, "title": t, "expression": e, "returnType": r} for n, t, r, e in expressions],
            "formElements": elements, "preserveFieldValuesWhenHidden": False}


def form_field(name, label, input_type, **extra):
    element = {"type": "field", "fieldName": name, "label": label, "inputType": input_type}
    element.update(extra)
    return element


def basemap():
    return {
        "baseMapLayers": [{
            "id": "World_Topo_Map_1702",
            "title": "World Topographic Map",
            "layerType": "ArcGISTiledMapServiceLayer",
            "url": "https://services.arcgisonline.com/ArcGIS/rest/services/World_Topo_Map/MapServer",
            "visibility": True,
            "opacity": 1,
        }],
        "title": "Topographic",
    }


def web_map(operational_layers, tables, extent):
    m = {
        "operationalLayers": operational_layers,
        "baseMap": basemap(),
        "spatialReference": dict(WEB_MERCATOR),
        "authoringApp": "ArcGISMapViewer",
        "authoringAppVersion": "2023.3",
        "initialState": {"viewpoint": {"targetGeometry": extent}},
        "version": "2.28",
    }
    if tables is not None:
        m["tables"] = tables
    return m


def simple_marker(color, size=8):
    return {"renderer": {"type": "simple", "symbol": {
        "type": "esriSMS", "style": "esriSMSCircle", "color": color, "size": size, "angle": 0,
        "xoffset": 0, "yoffset": 0, "outline": {"color": [255, 255, 255, 255], "width": 0.75}}},
        "transparency": 0}


# ---------------------------------------------------------------------------------------------------------
# Trees of Portland

TREES_URL = HOST + "/TreesOfPortland/FeatureServer"

SITE_TYPES = [("TL", "Tree lawn / parkway"), ("SC", "Sidewalk cutout"), ("MD", "Median"),
              ("YD", "Yard"), ("PK", "Park"), ("OT", "Other")]
WIRES = [("HV", "High voltage"), ("LV", "Low voltage"), ("NO", "None"), ("UN", "Unknown")]
CONDITIONS = [("Good", "Good"), ("Fair", "Fair"), ("Poor", "Poor"), ("Dead", "Dead")]
YES_NO = [("Y", "Yes"), ("N", "No")]
FUNCTIONAL_TYPES = [("BD", "Broadleaf deciduous"), ("BE", "Broadleaf evergreen"),
                    ("CD", "Coniferous deciduous"), ("CE", "Coniferous evergreen")]
YES_NO = [("Y", "Yes"), ("N", "No")]

SPECIES = [  # Species_ID, common, scientific, functional type, family, genus, edible
    (1, "Norway maple", "Acer platanoides", "BD", "Sapindaceae", "Acer", "N"),
    (2, "Northern red oak", "Quercus rubra", "BD", "Fagaceae", "Quercus", "N"),
    (3, "Douglas-fir", "Pseudotsuga menziesii", "CE", "Pinaceae", "Pseudotsuga", "N"),
    (4, "Sweet cherry", "Prunus avium", "BD", "Rosaceae", "Prunus", "Y"),
    (5, "Western redcedar", "Thuja plicata", "CE", "Cupressaceae", "Thuja", "N"),
]

# Streets running east-west, by latitude (Burnside, at about 45.5230, splits NE from SE addresses).
EW_STREETS = [
    (45.5052, "SE Division St"), (45.5068, "SE Ivon St"), (45.5085, "SE Lincoln St"),
    (45.5103, "SE Market St"), (45.5121, "SE Hawthorne Blvd"), (45.5139, "SE Salmon St"),
    (45.5151, "SE Taylor St"), (45.5163, "SE Belmont St"), (45.5171, "SE Morrison St"),
    (45.5190, "SE Stark St"), (45.5205, "SE Pine St"), (45.5220, "SE Ankeny St"),
    (45.5240, "NE Couch St"), (45.5252, "NE Davis St"), (45.5265, "NE Glisan St"),
    (45.5283, "NE Hoyt St"), (45.5300, "NE Irving St"), (45.5318, "NE Multnomah St"),
    (45.5336, "NE Clackamas St"), (45.5352, "NE Halsey St"),
]


def portland_address(rng, lon, lat):
    street = min(EW_STREETS, key=lambda s: abs(s[0] - lat))[1]
    block = int(round((lon + 122.6665) / 0.00103))
    number = block * 100 + rng.randrange(2, 98)
    return "%d %s" % (number, street)


def neighborhood_polygons():
    # A 3x3 vertex lattice (shared vertices keep neighbours exactly adjacent) with a jittered centre and
    # edge midpoints, plus one outward bulge on every outer edge.
    L0, L1, L2 = -122.6655, -122.6450, -122.6245
    B0, B1, B2 = 45.5055, 45.5205, 45.5355
    c = (-122.6441, 45.5213)
    top, bottom = (-122.6462, B2), (-122.6437, B0)
    left, right = (L0, 45.5198), (L2, 45.5219)
    quads = [
        # name, coalition, ring (any orientation; fixed below)
        ("Kerns", "Southeast Uplift", [(L0, B2), ((L0 + top[0]) / 2, B2 + 0.0009), top, c, left,
                                       (L0 - 0.0007, (left[1] + B2) / 2)]),
        ("Sullivan's Gulch", "Northeast Coalition of Neighborhoods",
         [top, (L2, B2), (L2 + 0.0011, (B2 + right[1]) / 2), right, c, ((top[0] + L2) / 2, B2 + 0.0006)]),
        ("Buckman", "Southeast Uplift", [left, c, bottom, ((L0 + bottom[0]) / 2, B0 - 0.0008), (L0, B0),
                                         (L0 - 0.0010, (B0 + left[1]) / 2)]),
        ("Sunnyside", "Southeast Uplift", [c, right, (L2 + 0.0008, (right[1] + B0) / 2), (L2, B0),
                                           ((bottom[0] + L2) / 2, B0 - 0.0011), bottom]),
    ]
    out = []
    for name, coalition, pts in quads:
        ring = [(round(x, 6), round(y, 6)) for x, y in pts]
        ring.append(ring[0])
        if signed_area(ring) > 0:  # Esri JSON: outer rings run clockwise
            ring.reverse()
        out.append((name, coalition, ring))
    return out


def build_trees():
    rng = random.Random(503)  # Portland area code
    polys = neighborhood_polygons()

    # ---- service metadata
    cond_domain = coded("TreeCondition", CONDITIONS)
    trees_fields = [
        f_oid(),
        f_string("Address", "Address", 100, nullable=False),
        f_string("Neighborhood", "Neighborhood", 50),
        f_string("Site_Type", "Site Type", 2, nullable=False, domain=coded("SiteType", SITE_TYPES), default="TL"),
        f_num("Site_Width", "Site Width (ft)", "Double"),
        f_string("Wires", "Overhead Wires", 2, domain=coded("Wires", WIRES)),
        f_num("Species_ID", "Species ID", "Integer"),
        f_string("Planted_By", "Planted By", 50),
        f_date("Planted_Date", "Planted Date"),
        f_string("Condition", "Condition", 10, domain=cond_domain),
        f_num("DBH", "DBH (in)", "Double", domain=range_domain("DBH", 0, 120)),
        f_string("Notes", "Notes", 255),
        f_string("Irrigated", "Irrigated", 1, domain=coded("YesNo", YES_NO)),
        *editor_tracking_fields(),
        f_globalid(),
    ]
    neigh_fields = [
        f_oid(),
        f_string("NAME", "Name", 50),
        f_string("Coalition", "Coalition", 50),
        f_globalid(),
    ]
    species_fields = [
        f_oid(),
        f_num("Species_ID", "Species ID", "Integer", nullable=False),
        f_string("Common_Name", "Common Name", 100),
        f_string("Scientific_Name", "Scientific Name", 100),
        f_string("Functional_Type", "Functional Type", 2, domain=coded("FunctionalType", FUNCTIONAL_TYPES)),
        f_string("Family", "Family", 50),
        f_string("Genus", "Genus", 50),
        f_string("Edible", "Edible", 1, domain=coded("YesNo", YES_NO)),
        f_globalid(),
    ]
    insp_fields = [
        f_oid(),
        f_date("Collected_Date", "Collected Date", nullable=False),
        f_string("Condition", "Condition", 10, nullable=False, domain=cond_domain),
        f_num("DBH", "DBH (in)", "Double", domain=range_domain("DBH", 0, 120)),
        f_string("Collected_By", "Collected By", 50),
        f_string("Notes", "Notes", 255),
        f_guid("Tree_GlobalID", "Tree GlobalID"),
        *editor_tracking_fields(),
        f_globalid(),
    ]

    # ---- rows: neighborhoods
    neigh_rows = []
    for i, (name, coalition, ring) in enumerate(polys, start=1):
        neigh_rows.append({"attributes": {"OBJECTID": i, "NAME": name, "Coalition": coalition,
                                          "GlobalID": guid(rng)},
                           "geometry": {"rings": [[list(p) for p in ring]]}})

    # ---- rows: species
    species_rows = []
    for i, (sid, common, sci, ftype, family, genus, edible) in enumerate(SPECIES, start=1):
        species_rows.append({"attributes": {"OBJECTID": i, "Species_ID": sid, "Common_Name": common,
                                            "Scientific_Name": sci, "Functional_Type": ftype, "Family": family,
                                            "Genus": genus, "Edible": edible, "GlobalID": guid(rng)}})

    # ---- rows: trees (6 per neighborhood, each well inside its polygon)
    lons = [p[0] for _, _, r in polys for p in r]
    lats = [p[1] for _, _, r in polys for p in r]
    tree_points = []
    for name, _, ring in polys:
        placed = 0
        while placed < 6:
            lon = round(rng.uniform(min(lons), max(lons)), 6)
            lat = round(rng.uniform(min(lats), max(lats)), 6)
            if point_in_ring(lon, lat, ring) and distance_to_ring(lon, lat, ring) > 0.0012:
                tree_points.append((name, lon, lat))
                placed += 1
    species_cycle = [1, 2, 3, 4, 5, 1, 4, 2, 1, 3, 5, 4, 2, 1, 4, 3, 1, 2, 5, 4, 1, 2, 4, 1]
    planters = ["Friends of Trees", "Property owner", "Portland Parks & Recreation", "Friends of Trees",
                "Property owner", "Friends of Trees"]
    tree_notes = [None, "Sidewalk lifting near root flare.", None, None, "Planted as a replacement for a removed cherry.",
                  None, "Lower limbs cleared for bus stop.", None, "Shared with neighbour at 2 o'clock side; café seating nearby.",
                  None, None, "Heritage tree candidate.", None, "Trunk wound from car strike, monitoring.", None,
                  None, "Irrigation bag in summer.", None, None, "Conflicts with streetlight; prune away from fixture.",
                  None, None, "Neighbour reports fruit drop on sidewalk.", None]
    collectors = ["J. Lee", "M. García", "R. Okafor", "S. Nguyen", "Friends of Trees volunteer"]
    editors = ["editor01", "editor02"]
    bulk_load = epoch_ms(2019, 2, 14, 17, 30)

    # inspections per tree: 1 each, plus a second one for 6 trees -> 30
    second_visit = {2, 5, 9, 13, 17, 21}
    insp_sequences = {  # condition path of (first, newest) for multi-visit trees
        2: ("Good", "Fair"), 5: ("Fair", "Poor"), 9: ("Good", "Good"), 13: ("Poor", "Dead"),
        17: ("Fair", "Good"), 21: ("Good", "Good"),
    }
    single_conditions = ["Good", "Good", "Fair", "Good", "Poor", "Good", "Fair", "Good", "Good",
                         "Fair", "Good", "Good", "Good", "Fair", "Good", "Poor", "Good", "Good"]
    insp_notes_pool = ["Minor deadwood in crown.", None, "Leaf scorch on south side.", None, None,
                       "Girdling root suspected; recheck next season.", None, "Healthy, good leader.",
                       None, "Aphids observed.", None, None, "No leaves at leaf-out; bark cracking.", None]

    tree_rows, insp_rows = [], []
    insp_oid = 0
    single_i = 0
    for idx, (neigh, lon, lat) in enumerate(tree_points, start=1):
        species = species_cycle[idx - 1]
        unknown_planting = idx in (3, 15)
        if unknown_planting:
            planted = None
            planted_by = "Unknown"
            age_years = rng.uniform(25, 45)
            base_year = 2019
        else:
            year = rng.randint(1992, 2021)
            planted = epoch_ms(year, rng.choice([3, 4, 10, 11]), rng.randint(1, 28), 19)
            planted_by = planters[idx % len(planters)]
            age_years = None
            base_year = year
        created = bulk_load
        created_by = "admin"
        if planted is not None and planted > bulk_load:
            created = ms_plus(planted, days=2, hours=1)
            created_by = editors[idx % 2]
        gid = guid(rng)

        # inspections, oldest first
        if idx in second_visit:
            conds = list(insp_sequences[idx])
        else:
            conds = [single_conditions[single_i]]
            single_i += 1
        visits = []
        start = max(created, epoch_ms(2019, 5, 1)) if planted is None or planted < epoch_ms(2019, 1, 1) \
            else ms_plus(created, days=200)
        t = ms_plus(start, days=rng.randint(20, 300), hours=rng.randint(0, 6))
        for k, cond in enumerate(conds):
            visit_dt = ms_to_dt(t)
            years = (age_years if age_years is not None else 0) + (visit_dt.year - base_year) + visit_dt.month / 12.0
            dbh = round(max(1.0, 1.25 + 0.55 * years * (1.3 if species in (2, 3, 5) else 1.0)) * 2) / 2
            if cond == "Dead" and k > 0:
                dbh = visits[-1][2]
            visits.append((t, cond, dbh))
            t = ms_plus(t, days=rng.randint(330, 700), hours=rng.randint(0, 5))
        # keep every inspection in the past relative to the dataset (end of 2024)
        assert visits[-1][0] < epoch_ms(2025, 1, 1), visits
        last_editor, last_edit = created_by, created
        for (when, cond, dbh) in visits:
            insp_oid += 1
            editor = editors[(idx + insp_oid) % 2]
            insp_created = ms_plus(when, hours=1, minutes=rng.randint(0, 50))
            insp_rows.append({"attributes": {
                "OBJECTID": insp_oid, "Collected_Date": when, "Condition": cond, "DBH": dbh,
                "Collected_By": collectors[(idx + insp_oid) % len(collectors)],
                "Notes": insp_notes_pool[insp_oid % len(insp_notes_pool)],
                "Tree_GlobalID": gid,
                "created_user": editor, "created_date": insp_created,
                "last_edited_user": editor, "last_edited_date": insp_created,
                "GlobalID": guid(rng)}})
            # the hook copies the newest inspection's Condition and DBH onto the tree when it is saved
            last_editor, last_edit = editor, ms_plus(insp_created, seconds=2)
        newest = max(visits)
        tree_rows.append({"attributes": {
            "OBJECTID": idx,
            "Address": portland_address(rng, lon, lat),
            "Neighborhood": neigh,
            "Site_Type": rng.choice(["TL", "TL", "TL", "SC", "SC", "MD", "YD", "PK"]),
            "Site_Width": rng.choice([3.0, 3.5, 4.0, 4.5, 5.0, 6.0, 7.5, 8.0]),
            "Wires": rng.choice(["HV", "LV", "LV", "NO", "NO", "NO", "UN"]),
            "Species_ID": species,
            "Planted_By": planted_by,
            "Planted_Date": planted,
            "Condition": newest[1],
            "DBH": newest[2],
            "Notes": tree_notes[idx - 1],
            "Irrigated": "Y" if idx % 3 == 0 else "N",  # no rng call: the other values stay as they were
            "created_user": created_by, "created_date": created,
            "last_edited_user": last_editor, "last_edited_date": last_edit,
            "GlobalID": gid},
            "geometry": {"x": lon, "y": lat}})

    # ---- snapshot
    tree_pts = [(r["geometry"]["x"], r["geometry"]["y"]) for r in tree_rows]
    neigh_pts = [tuple(p) for r in neigh_rows for p in r["geometry"]["rings"][0]]
    all_edits = [r["attributes"]["last_edited_date"] for r in tree_rows + insp_rows]
    last_edit = max(all_edits)
    trees_layer = layer_json(
        lid=0, name="Trees",
        description="Street and park trees planted and inspected by the city's urban forestry programme.",
        geometry_type="esriGeometryPoint", fields=trees_fields, display_field="Address",
        capabilities="Create,Delete,Query,Update,Uploads,Editing", has_attachments=True,
        relationships=[relationship(0, "Species", 2, "esriRelRoleDestination", "Species_ID"),
                       relationship(1, "Inspections", 3, "esriRelRoleOrigin", "GlobalID")],
        templates=[{"name": "Tree", "description": "A newly planted or newly surveyed tree.",
                    "drawingTool": "esriFeatureEditToolPoint",
                    "prototype": {"attributes": {"Site_Type": "TL", "Wires": None, "Species_ID": None,
                                                 "Planted_By": None, "Planted_Date": None, "Site_Width": None,
                                                 "Notes": None, "Irrigated": "N"}}}],
        edit_fields_info=dict(EDIT_FIELDS_INFO), extent=extent_of(tree_pts, pad=50.0), versioned=False,
        drawing_info=simple_marker([56, 168, 0, 255]), last_edit=last_edit)
    neigh_layer = layer_json(
        lid=1, name="Neighborhoods",
        description="Neighborhood association boundaries (simplified). Reference data: boundaries may be "
                    "corrected (Update), never added or deleted.",
        geometry_type="esriGeometryPolygon", fields=neigh_fields, display_field="NAME", capabilities="Query,Update",
        has_attachments=False, relationships=[], templates=[], edit_fields_info=None,
        extent=extent_of(neigh_pts), versioned=False,
        drawing_info={"renderer": {"type": "simple", "symbol": {
            "type": "esriSFS", "style": "esriSFSSolid", "color": [255, 235, 190, 64],
            "outline": {"type": "esriSLS", "style": "esriSLSSolid", "color": [168, 112, 0, 255], "width": 1.5}}},
            "transparency": 0},
        last_edit=epoch_ms(2019, 2, 14, 17, 0))
    species_table = layer_json(
        lid=2, name="Species", description="Tree species lookup table. Reference data, read-only.",
        geometry_type=None, fields=species_fields, display_field="Common_Name", capabilities="Query",
        has_attachments=False, relationships=[relationship(0, "Trees", 0, "esriRelRoleOrigin", "Species_ID")],
        templates=[], edit_fields_info=None, extent=None, versioned=False, drawing_info=None,
        last_edit=epoch_ms(2019, 2, 14, 17, 0))
    insp_table = layer_json(
        lid=3, name="Inspections", description="Tree inspections; the newest one sets the tree's Condition and DBH.",
        geometry_type=None, fields=insp_fields, display_field="Collected_Date",
        capabilities="Create,Query,Update,Delete,Editing", has_attachments=False,
        relationships=[relationship(1, "Tree", 0, "esriRelRoleDestination", "Tree_GlobalID")],
        templates=[], edit_fields_info=dict(EDIT_FIELDS_INFO), extent=None, versioned=False, drawing_info=None,
        last_edit=max(r["attributes"]["last_edited_date"] for r in insp_rows))
    full_extent = extent_of(neigh_pts + tree_pts)
    root = service_root(
        description="Trees of Portland: street trees, their species and inspections, with neighborhood "
                    "boundaries. Invented sample data for MapRules.",
        capabilities="Create,Delete,Query,Update,Uploads,Editing",
        layers=[{"id": 0, "name": "Trees", "parentLayerId": -1, "defaultVisibility": True, "subLayerIds": None,
                 "minScale": 0, "maxScale": 0, "geometryType": "esriGeometryPoint"},
                {"id": 1, "name": "Neighborhoods", "parentLayerId": -1, "defaultVisibility": True,
                 "subLayerIds": None, "minScale": 0, "maxScale": 0, "geometryType": "esriGeometryPolygon"}],
        tables=[{"id": 2, "name": "Species"}, {"id": 3, "name": "Inspections"}],
        versioned=False, full_extent=full_extent)
    snapshot = {TREES_URL: root}
    for lyr in (trees_layer, neigh_layer, species_table, insp_table):
        snapshot["%s/%d" % (TREES_URL, lyr["id"])] = lyr

    # ---- web map
    trees_popup = popup("{Address}", build_field_infos(trees_fields, {
        "Address": {"label": "Address", "editable": True, "tooltip": "Street address nearest the tree (required)"},
        "Neighborhood": {"label": "Neighborhood", "tooltip": "Set from the neighborhood that contains the tree"},
        "Site_Type": {"label": "Site type", "editable": True, "tooltip": "Where the tree is planted"},
        "Site_Width": {"label": "Site width (ft)", "editable": True, "tooltip": "Width of the planting strip in feet"},
        "Wires": {"label": "Overhead wires", "editable": True, "tooltip": "Wires above the canopy"},
        "Planted_By": {"label": "Planted by", "editable": True, "tooltip": "Organisation or person who planted it"},
        "Planted_Date": {"label": "Planted date", "editable": True, "tooltip": "Leave empty when unknown"},
        "Condition": {"label": "Condition", "tooltip": "From the newest inspection"},
        "DBH": {"label": "DBH (in)", "tooltip": "Trunk diameter at breast height, from the newest inspection"},
        "Notes": {"label": "Notes", "editable": True, "textarea": True, "tooltip": "Anything the next crew should know"},
        "Species_ID": {"label": "Species ID", "visible": False},
    }), attachments=True, relationships=[(0, "Species"), (1, "Inspections")])
    neigh_popup = popup("{NAME}", build_field_infos(neigh_fields, {
        "NAME": {"label": "Neighborhood"},
        "Coalition": {"label": "Coalition"},
    }), attachments=False)
    species_popup = popup("{Common_Name}", build_field_infos(species_fields, {
        "Common_Name": {"label": "Common name"},
        "Scientific_Name": {"label": "Scientific name"},
        "Functional_Type": {"label": "Functional type"},
        "Family": {"label": "Family"},
        "Genus": {"label": "Genus"},
        "Edible": {"label": "Edible fruit or nuts"},
        "Species_ID": {"label": "Species ID", "visible": False},
    }), attachments=False, relationships=[(0, "Trees")])
    insp_popup = popup("Inspection of {Collected_Date}", build_field_infos(insp_fields, {
        "Collected_Date": {"label": "Collected", "editable": True, "tooltip": "Date of the inspection"},
        "Condition": {"label": "Condition", "editable": True, "tooltip": "Overall condition of the tree"},
        "DBH": {"label": "DBH (in)", "editable": True, "tooltip": "Trunk diameter at 4.5 ft, in inches"},
        "Collected_By": {"label": "Collected by", "editable": True, "tooltip": "Inspector's name"},
        "Notes": {"label": "Notes", "editable": True, "textarea": True, "tooltip": "Observations"},
        "Tree_GlobalID": {"label": "Tree", "visible": False},
    }), attachments=False, relationships=[(1, "Tree")],
        order_by=[{"field": "Collected_Date", "order": "desc"}])

    trees_form = form_info(
        "Tree", "What a planting crew records for a street tree.",
        expressions=[
            ("expr/neighborhood", "Neighborhood from the map", "string",
             "// The neighborhood polygon the tree stands in (what copyFromContaining did for the pop-up)\n"
             "var hoods = Intersects(FeatureSetByName($map, \"Neighborhoods\", [\"NAME\"], true), $feature)\n"
             "var hood = First(hoods)\n"
             "if (hood == null) { return null }\n"
             "return hood.NAME"),
            ("expr/has-wires", "Wires above the tree", "boolean",
             "Includes(['HV', 'LV'], $feature.Wires)"),
        ],
        elements=[
            {"type": "group", "label": "Location", "initialState": "expanded", "formElements": [
                form_field("Address", "Address", {"type": "text-box", "maxLength": 100},
                           hint="Street address nearest the tree"),
                form_field("Neighborhood", "Neighborhood", {"type": "text-box", "maxLength": 50},
                           valueExpression="expr/neighborhood"),
            ]},
            {"type": "group", "label": "Site", "initialState": "expanded", "formElements": [
                form_field("Site_Type", "Site type", {"type": "combo-box", "showNoValueOption": False}),
                form_field("Site_Width", "Site width (ft)", {"type": "text-box"}),
                form_field("Wires", "Overhead wires", {"type": "radio-buttons", "showNoValueOption": True}),
                {"type": "text", "text": "Keep the canopy at least 10 ft from the wires.", "textFormat": "plain-text",
                 "visibilityExpression": "expr/has-wires"},
                form_field("Irrigated", "Irrigated", {"type": "switch", "onValue": "Y", "offValue": "N"}),
            ]},
            form_field("Planted_By", "Planted by", {"type": "text-box", "maxLength": 50}),
            form_field("Planted_Date", "Planted date", {"type": "date-picker"}),
            form_field("Notes", "Notes", {"type": "text-area", "maxLength": 255}),
            {"type": "attachment", "label": "Photos", "attachmentKeyword": "tree-photo", "inputType": {"type": "image"},
             "maxAttachmentCount": 5},
            {"type": "relationship", "label": "Inspections", "relationshipId": 1, "displayCount": 3,
             "orderByFields": [{"field": "Collected_Date", "order": "desc"}]},
        ])

    webmap = web_map(
        operational_layers=[
            {"id": "Neighborhoods_3390", "title": "Neighborhoods", "layerType": "ArcGISFeatureLayer",
             "url": TREES_URL + "/1", "visibility": True, "opacity": 0.6, "popupInfo": neigh_popup},
            {"id": "Trees_7125", "title": "Trees", "layerType": "ArcGISFeatureLayer",
             "url": TREES_URL + "/0", "visibility": True, "opacity": 1, "popupInfo": trees_popup,
             "formInfo": trees_form},
        ],
        tables=[
            {"id": "Species_5127", "title": "Species", "url": TREES_URL + "/2", "popupInfo": species_popup},
            {"id": "Inspections_8842", "title": "Inspections", "url": TREES_URL + "/3", "popupInfo": insp_popup},
        ],
        extent=full_extent)

    features = {
        0: {"objectIdFieldName": "OBJECTID", "globalIdFieldName": "GlobalID", "geometryType": "esriGeometryPoint",
            "spatialReference": dict(WGS84), "features": tree_rows},
        1: {"objectIdFieldName": "OBJECTID", "globalIdFieldName": "GlobalID", "geometryType": "esriGeometryPolygon",
            "spatialReference": dict(WGS84), "features": neigh_rows},
        2: {"objectIdFieldName": "OBJECTID", "globalIdFieldName": "GlobalID", "features": species_rows},
        3: {"objectIdFieldName": "OBJECTID", "globalIdFieldName": "GlobalID", "features": insp_rows},
    }
    return "TreesOfPortland", webmap, snapshot, features


# ---------------------------------------------------------------------------------------------------------
# Damage Assessment (Naperville, Illinois)

DAMAGE_URL = HOST + "/DamageAssessment/FeatureServer"
DAMAGE_TYPES = [("Destroyed", "Destroyed"), ("Major", "Major"), ("Minor", "Minor"), ("Affected", "Affected"),
                ("Inaccessible", "Inaccessible"), ("Default", "Default")]
CAUSES = [("Tornado", "Tornado"), ("Wind", "Straight-line wind"), ("Hail", "Hail"), ("Flood", "Flood"),
          ("Fire", "Fire"), ("Earthquake", "Earthquake"), ("Other", "Other")]

BUSINESSES = [  # placename, street address
    ("Riverwalk Bakery", "S Main St"), ("Naper Hardware & Supply", "W Jefferson Ave"),
    ("Prairie Path Cycles", "S Washington St"), ("Ogden Avenue Auto Care", "E Ogden Ave"),
    ("Café DuPage", "W Jackson Ave"), ("Centennial Dental Group", "S Washington St"),
    ("Heritage Books", "W Van Buren Ave"), ("Blue Heron Florist", "S Webster St"),
    ("Chicago Avenue Cleaners", "E Chicago Ave"), ("Naperville Family Pharmacy", "W 5th Ave"),
    ("Mill Street Tap", "N Mill St"), ("Señor Taco Cantina", "E Ogden Ave"),
    ("Fox Valley Insurance", "S Main St"), ("Kendall Print & Copy", "W Chicago Ave"),
    ("Sunrise Pancake House", "E Ogden Ave"), ("Aurora Avenue Tire", "W Aurora Ave"),
    ("DuPage River Outfitters", "E Jackson Ave"), ("Water Street Yoga", "Water St"),
    ("Naper Boulevard Vet Clinic", "S Naper Blvd"), ("Precision Optical", "S Washington St"),
    ("Little Friends Daycare", "N Loomis St"), ("West Street Grocery", "S West St"),
    ("Benton Avenue Laundromat", "W Benton Ave"), ("Eagle Street Gallery", "S Eagle St"),
    ("Diehl Road Office Suites", "Diehl Rd"), ("North Central Coffee", "N Brainard St"),
    ("Loomis Street Hair Studio", "S Loomis St"), ("Route 59 Furniture Outlet", "S Route 59"),
    ("Van Buren Shoe Repair", "E Van Buren Ave"), ("Main Street Music", "N Main St"),
]

DAMAGE_NOTES = {  # by damage type; picked in turn
    "Destroyed": ["Exterior wall partially collapsed at loading dock. Do NOT enter.",
                  "Roof structure failed; building red-tagged by the building department."],
    "Major": ["Roof membrane peeled back on north side; water intrusion in storage room.",
              "Storefront glazing shattered and ceiling grid down; closed until repaired.", None],
    "Minor": ["Signage torn off; minor siding damage.", None,
              "Rooftop HVAC unit displaced about 3 ft; gas shut off by utility.", None,
              "Two skylights cracked; tarped by owner."],
    "Affected": ["Parking lot light pole down across two stalls; structure looks sound.", None,
                 "Gutters and a few shingles missing.", None],
    "Inaccessible": ["Access road blocked by fallen trees; could not reach the building.",
                     "Site inaccessible: road closed by police; revisit when cleared."],
    "Default": [None],
    "Flood": ["Basement flooded to about 18 in.; electrical panel submerged.",
              "Water line 6 in. above the floor; drywall and stock ruined."],
    "FloodLight": ["Water reached the door sill; carpets wet near the entrance only.", None],
}
CAUSE_CHOICES = {  # plausible primary causes per damage type for the July storm
    "Destroyed": ["Tornado"], "Major": ["Tornado", "Wind", "Wind", "Fire"],
    "Minor": ["Wind", "Wind", "Hail", "Tornado", "Other"], "Affected": ["Wind", "Hail", "Hail", "Other"],
    "Inaccessible": ["Tornado", "Wind"],
}


def build_damage():
    rng = random.Random(630)  # Naperville area code
    dom = coded("DamageType", DAMAGE_TYPES)
    fields = [
        f_oid("objectid", "OBJECTID"),
        f_string("incidentid", "Incident ID", 40),
        f_string("placename", "Place Name", 100),
        f_string("fulladdr", "Full Address", 150),
        f_string("typdamage", "Damage Type", 20, domain=dom, default="Default"),
        f_string("primcause", "Primary Cause", 20, domain=coded("PrimaryCause", CAUSES)),
        f_date("inspdate", "Inspection Date"),
        f_num("numstories", "Number of Stories", "SmallInteger",
              domain=range_domain("Stories", 1, 60)),
        f_num("estloss", "Estimated Loss (USD)", "Double"),
        f_string("notes", "Notes", 255),
        *editor_tracking_fields(),
        f_globalid("globalid", "GlobalID"),
    ]
    # 30 buildings; each of the six damage codes appears; a few belong to a later flood incident
    types_cycle = ["Minor", "Major", "Affected", "Minor", "Destroyed", "Minor", "Major", "Affected",
                   "Inaccessible", "Minor", "Affected", "Default", "Major", "Minor", "Affected", "Minor",
                   "Destroyed", "Affected", "Minor", "Major", "Default", "Affected", "Minor", "Inaccessible",
                   "Minor", "Major", "Affected", "Minor", "Default", "Affected"]
    loss_range = {"Destroyed": (750000, 2400000), "Major": (120000, 600000), "Minor": (8000, 90000),
                  "Affected": (500, 7500)}
    used = {}

    def next_note(key):
        k = used.get(key, 0)
        used[key] = k + 1
        notes = DAMAGE_NOTES[key]
        return notes[k % len(notes)]

    rows, pts = [], []
    for i, ((place, street), typ) in enumerate(zip(BUSINESSES, types_cycle), start=1):
        flood = i in (7, 18, 22, 27)
        if "Ogden" in street or street in ("Diehl Rd",):
            lat = rng.uniform(41.7845, 41.7935)
        else:
            lat = rng.uniform(41.7590, 41.7810)
        lon = rng.uniform(-88.1750, -88.1280) if street != "S Route 59" else rng.uniform(-88.2050, -88.2000)
        lon, lat = round(lon, 6), round(lat, 6)
        pts.append((lon, lat))
        number = rng.randrange(100, 1800) if "Route 59" not in street else rng.randrange(200, 900)
        if flood:
            incident, cause = "NAP-FLD-2024-0802", "Flood"
            insp = epoch_ms(2024, 8, rng.randint(3, 6), rng.randint(14, 22), rng.randint(0, 59))
        else:
            incident = "NAP-SVR-2024-0715"
            cause = rng.choice(CAUSE_CHOICES.get(typ, ["Other"]))
            insp = epoch_ms(2024, 7, rng.randint(16, 20), rng.randint(13, 23), rng.randint(0, 59))
        if typ == "Default":
            cause, loss, insp_value = None, None, None
        else:
            lo, hi = loss_range.get(typ, (None, None))
            loss = None if lo is None else float(round(rng.uniform(lo, hi), -2))
            insp_value = insp
        editor = "editor01" if i % 3 else "editor02"
        created = insp if insp_value is not None else epoch_ms(2024, 7, 16, 12, 5 + i)
        edited_by, edited = editor, ms_plus(created, minutes=rng.randint(2, 40))
        if i % 5 == 0:  # reviewed and corrected by the coordinator before posting to DEFAULT
            edited_by, edited = "admin", ms_plus(created, days=1, hours=rng.randint(1, 5))
        rows.append({"attributes": {
            "objectid": i,
            "incidentid": incident,
            "placename": place,
            "fulladdr": "%d %s, Naperville, IL %s" % (number, street, "60540" if lat < 41.785 else "60563"),
            "typdamage": typ,
            "primcause": cause,
            "inspdate": insp_value,
            "numstories": rng.choice([1, 1, 1, 2, 2, 3, 4]),
            "estloss": loss,
            "notes": next_note(typ if not flood or typ in ("Default", "Inaccessible")
                               else "Flood" if typ in ("Destroyed", "Major") else "FloodLight"),
            "created_user": editor, "created_date": created,
            "last_edited_user": edited_by, "last_edited_date": edited,
            "globalid": guid(rng)},
            "geometry": {"x": lon, "y": lat}})

    last_edit = max(r["attributes"]["last_edited_date"] for r in rows)
    layer = layer_json(
        lid=0, name="Damage Assessment",
        description="Post-event damage assessment of commercial buildings in Naperville, Illinois.",
        geometry_type="esriGeometryPoint", fields=fields, display_field="placename",
        capabilities="Create,Delete,Query,Update,Uploads,Editing", has_attachments=True, relationships=[],
        templates=[{"name": "Damage Assessment", "description": "A commercial building inspected after the event.",
                    "drawingTool": "esriFeatureEditToolPoint",
                    "prototype": {"attributes": {"typdamage": "Default", "primcause": None, "incidentid": None,
                                                 "placename": None, "numstories": None}}}],
        edit_fields_info=dict(EDIT_FIELDS_INFO), extent=extent_of(pts, pad=100.0), versioned=True,
        drawing_info={"renderer": {
            "type": "uniqueValue", "field1": "typdamage", "defaultLabel": "Other",
            "defaultSymbol": {"type": "esriSMS", "style": "esriSMSCircle", "color": [130, 130, 130, 255], "size": 8,
                              "angle": 0, "xoffset": 0, "yoffset": 0,
                              "outline": {"color": [255, 255, 255, 255], "width": 0.75}},
            "uniqueValueInfos": [
                {"value": code, "label": name, "symbol": {
                    "type": "esriSMS", "style": "esriSMSCircle", "color": color, "size": 9, "angle": 0,
                    "xoffset": 0, "yoffset": 0, "outline": {"color": [255, 255, 255, 255], "width": 0.75}}}
                for (code, name), color in zip(DAMAGE_TYPES, [[168, 0, 0, 255], [230, 76, 0, 255],
                                                               [255, 170, 0, 255], [255, 255, 115, 255],
                                                               [0, 112, 255, 255], [178, 178, 178, 255]])]},
            "transparency": 0},
        last_edit=last_edit)
    full_extent = extent_of(pts, pad=100.0)
    root = service_root(
        description="Damage Assessment: commercial buildings in Naperville, Illinois, inspected after severe "
                    "weather. Branch versioned: crews edit in their own versions. Invented sample data for MapRules.",
        capabilities="Create,Delete,Query,Update,Uploads,Editing",
        layers=[{"id": 0, "name": "Damage Assessment", "parentLayerId": -1, "defaultVisibility": True,
                 "subLayerIds": None, "minScale": 0, "maxScale": 0, "geometryType": "esriGeometryPoint"}],
        tables=[], versioned=True, full_extent=full_extent)
    snapshot = {DAMAGE_URL: root, DAMAGE_URL + "/0": layer}

    pop = popup("{typdamage}: {placename}", build_field_infos(fields, {
        "typdamage": {"label": "Damage type", "editable": True, "tooltip": "Worst damage observed"},
        "placename": {"label": "Business name", "editable": True, "tooltip": "Name on the storefront"},
        "fulladdr": {"label": "Address", "editable": True, "tooltip": "Street address, city, state and ZIP"},
        "primcause": {"label": "Primary cause", "editable": True, "tooltip": "Main cause of the damage"},
        "inspdate": {"label": "Inspection date", "editable": True, "tooltip": "When the building was inspected"},
        "numstories": {"label": "Stories", "editable": True, "tooltip": "Number of stories above ground"},
        "estloss": {"label": "Estimated loss (USD)", "editable": True, "tooltip": "Rough estimate in US dollars",
                    "format": {"places": 0, "digitSeparator": True}},
        "incidentid": {"label": "Incident ID", "editable": True, "tooltip": "Event identifier, e.g. NAP-SVR-2024-0715"},
        "notes": {"label": "Notes", "editable": True, "textarea": True, "tooltip": "Hazards, access, follow-up"},
    }), attachments=True)
    damage_form = form_info(
        "Damage assessment", "One building, as the inspector finds it.",
        expressions=[
            ("expr/damaged", "The building is damaged", "boolean",
             "Includes(['Destroyed', 'Major', 'Minor', 'Affected'], $feature.typdamage)"),
            ("expr/loss-required", "A loss estimate is needed", "boolean",
             "Includes(['Destroyed', 'Major'], $feature.typdamage)"),
            ("expr/incident", "Incident from the inspection date", "string",
             "if (IsEmpty($feature.inspdate)) { return null }\n"
             "return 'NAP-SVR-' + Text($feature.inspdate, 'YYYY-MM-DD')"),
        ],
        elements=[
            {"type": "group", "label": "Building", "initialState": "expanded", "formElements": [
                form_field("placename", "Business name", {"type": "text-box", "maxLength": 100}),
                form_field("fulladdr", "Address", {"type": "text-box", "maxLength": 150}),
                form_field("numstories", "Stories", {"type": "text-box"}),
            ]},
            form_field("typdamage", "Damage type", {"type": "radio-buttons", "showNoValueOption": False}),
            {"type": "group", "label": "Damage", "description": "Shown when the building is damaged",
             "initialState": "expanded", "visibilityExpression": "expr/damaged", "formElements": [
                form_field("primcause", "Primary cause", {"type": "combo-box"}),
                form_field("estloss", "Estimated loss (USD)", {"type": "text-box"},
                           requiredExpression="expr/loss-required"),
                form_field("notes", "Notes", {"type": "text-area", "maxLength": 255}),
            ]},
            form_field("inspdate", "Inspection date", {"type": "datetime-picker", "includeTime": True}),
            form_field("incidentid", "Incident ID", {"type": "text-box", "maxLength": 40},
                       valueExpression="expr/incident"),
            {"type": "attachment", "label": "Photos of the damage", "attachmentKeyword": "damage-photo",
             "inputType": {"type": "image"}},
        ])
    webmap = web_map(
        operational_layers=[
            {"id": "DamageAssessment_4481", "title": "Damage Assessment", "layerType": "ArcGISFeatureLayer",
             "url": DAMAGE_URL + "/0", "visibility": True, "opacity": 1, "popupInfo": pop,
             "formInfo": damage_form},
        ],
        tables=[], extent=full_extent)
    features = {0: {"objectIdFieldName": "objectid", "globalIdFieldName": "globalid",
                    "geometryType": "esriGeometryPoint", "spatialReference": dict(WGS84), "features": rows}}
    return "DamageAssessment", webmap, snapshot, features


# ---------------------------------------------------------------------------------------------------------

def render(obj):
    return json.dumps(obj, indent=2, ensure_ascii=False) + "\n"


def offline_item(name, webmap):
    """The web map as a portal item exports it ({item, itemData}), with the Offline keyword ArcGIS adds when
    "Enable offline mode" is on: a map meant for offline use, checked by the offline/ rules."""
    item = {"id": "7d1f0c3a9b2e4c5d8e6f0a1b2c3d4e5f", "title": "Trees of Portland (offline)", "type": "Web Map",
            "typeKeywords": ["ArcGIS API for JavaScript", "Collector", "Data Editing", "Explorer Web Map", "Map",
                             "Offline", "Online Map", "Web Map"],
            "owner": "admin", "access": "org"}
    return {"item": item, "itemData": webmap}


def outputs():
    files = {}
    for build in (build_trees, build_damage):
        name, webmap, snapshot, features = build()
        files[os.path.join(name, name + ".json")] = render(webmap)
        files[os.path.join(name, name + ".services.json")] = render(snapshot)
        for n, fs in features.items():
            files[os.path.join(name, "features", "%d.json" % n)] = render(fs)
        if name == "TreesOfPortland":
            # Outside the service folder (which `maprules serve` reads), with its own copy of the snapshot.
            files[os.path.join("Offline", name + "-offline.json")] = render(offline_item(name, webmap))
            files[os.path.join("Offline", name + "-offline.services.json")] = render(snapshot)
    return files


def main(argv):
    files = outputs()
    if "--check" in argv:
        stale = []
        for rel, text in files.items():
            path = os.path.join(HERE, rel)
            try:
                with open(path, encoding="utf-8") as fh:
                    if fh.read() != text:
                        stale.append(rel)
            except OSError:
                stale.append(rel)
        for rel in stale:
            print("out of date: Samples/" + rel, file=sys.stderr)
        return 1 if stale else 0
    for rel, text in files.items():
        path = os.path.join(HERE, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
        print("wrote Samples/" + rel)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
