#!/usr/bin/env python3
"""Check the JSON Schemas in Schemas/ against real and sample documents.

Usage: python3 Schemas/check_schemas.py [--corpus DIR] [--verbose]

Needs only the standard library and the `jsonschema` package (with `referencing`). Every schema in
Schemas/ is checked against the draft 2020-12 meta-schema and registered by its `$id`, so cross-schema
`$ref`s resolve the way the MapRules validator resolves them. Then:

- every web map of the corpus (`Tests/Fixtures/corpus/webmaps/`) against webmap.schema.json; the maps that
  genuinely break the specification are listed in EXPECTED_FAILURES below (and in Schemas/README.md)
  with the exact pointer and keyword, so a new failure, or a documented one that goes away, is reported;
- Samples/TreesOfPortland and Samples/DamageAssessment (must pass), every Samples/Broken map that parses
  (only the files meant to break the document's structure may fail), every *.services.json snapshot
  against services-snapshot.schema.json;
- the corpus layer and table metadata files against layer.schema.json, the service documents against
  its `$defs/serviceRoot`;
- hand-made cases that must fail with one precise error (a misspelled layerType must give exactly one
  `enum` error at /operationalLayers/N/layerType) or must pass, for every schema including the edit
  script schema.

Exit status 0 when everything is as expected, 1 otherwise.
"""

import argparse
import copy
import glob
import json
import os
import sys

from jsonschema import Draft202012Validator
from referencing import Registry
from referencing.jsonschema import DRAFT202012

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BASE = "https://maprules.dev/schemas/"

# (file name) -> {(instance pointer, keyword)}: the documents expected to fail, and exactly how.
EXPECTED_FAILURES = {
    "webmaps": {
        # ArcREST sample: a CSV layer's layerDefinition.extent is "" where the spec wants an envelope object.
        "015-arcrest-csv-layers.json": {("/operationalLayers/0/layerDefinition/extent", "type")},
        # No spatialReference (required by the web map specification): an image service map, a basemap-only
        # 1.9 map, and story map tour and swipe maps saved by older builders.
        "003-landscape-modeler-imageservice.json": {("", "required")},
        "016-devsupport-basemap-only-v1.9.json": {("", "required")},
        "024-storymap-maptour-v2.1.0-map1-cb530d.json": {("", "required")},
        "030-storymap-swipe-v1.1-map1-60a6d8.json": {("", "required")},
        "031-storymap-swipe-v1.1-map2.1-8ea34b.json": {("", "required")},
        # No version: a Solution.js test mock.
        "043-solutionjs-mock-empty-popupinfo-table.json": {("", "required")},
    },
    "broken": {
        # itemData is a JSON string holding a map, not the map object.
        "json--not-a-map.json": {("/itemData", "type")},
        # the top-level value is an array (600 levels deep), not an object.
        "json--too-deep.json": {("", "type")},
        # schema/invalid's own sample: a misspelled layer type, a string visibility, a misspelled element type.
        "schema--invalid.json": {("/operationalLayers/0/layerType", "enum"), ("/operationalLayers/0/visibility", "type"),
                                 ("/operationalLayers/0/popupInfo/popupElements/1/type", "enum")},
    },
    "layers": {
        # Solution templates: extent is a {{...solutionExtent}} placeholder, replaced by an envelope when
        # the template is deployed; the template is not what a running service returns.
        "028-solution-requests-layer-relationships-attachments.json": {("/extent", "type")},
        "029-solution-comments-table-relationship.json": {("/extent", "type")},
        "030-solution-operations-vehicles-table-domains.json": {("/extent", "type")},
    },
}
# The web map specification's required top-level keys (webmap.schema.json, $defs/webMap/required).
MAP_LEVEL_REQUIRED = ["operationalLayers", "baseMap", "spatialReference", "version"]
# Broken samples that are not valid JSON (or not UTF-8) at all: the json/ rules report them, the schema never sees them.
EXPECTED_UNPARSEABLE = {"json--encoding.json", "json--syntax.json"}

LAYER_FILES = ["011", "012", "017", "019", "020", "021", "024", "025", "028", "029", "030"]
SERVICE_ROOT_FILES = ["001", "002", "014", "015", "016"]
# Corpus service files that are neither layer metadata nor a service document, and why.
NOT_CHECKED = {
    "003": "query response", "004": "applyEdits response", "005": "addFeatures response",
    "006": "updateFeatures response", "007": "deleteFeatures response", "008": "queryRelatedRecords response",
    "009": "attachmentInfos response", "010": "error response", "013": "query response",
    "018": "query response", "022": "query response", "023": "query response", "026": "query response",
    "027": "createService definition from a Solution template (no layers list; {{...}} placeholders)",
    "031": "EsriJSON feature set",
}


def pointer(error):
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in error.absolute_path)


class Checker:
    def __init__(self, verbose):
        self.verbose = verbose
        self.schemas = {}
        for path in sorted(glob.glob(os.path.join(HERE, "*.schema.json"))):
            with open(path, encoding="utf-8") as f:
                schema = json.load(f)
            Draft202012Validator.check_schema(schema)
            name = os.path.basename(path)[: -len(".schema.json")]
            assert schema.get("$id") == BASE + os.path.basename(path), f"{path}: $id is not {BASE}{os.path.basename(path)}"
            self.schemas[name] = schema
        self.registry = Registry().with_resources(
            (s["$id"], DRAFT202012.create_resource(s)) for s in self.schemas.values()
        )
        self.validators = {}
        self.lines = []
        self.problems = 0

    def validator(self, ref):
        if ref not in self.validators:
            schema = self.schemas[ref] if ref in self.schemas else {"$ref": ref}
            self.validators[ref] = Draft202012Validator(schema, registry=self.registry)
        return self.validators[ref]

    def errors(self, ref, instance):
        return sorted(self.validator(ref).iter_errors(instance), key=lambda e: (pointer(e), e.validator))

    def problem(self, text):
        self.problems += 1
        print("  UNEXPECTED: " + text)

    def check_files(self, label, ref, paths, expected=None, unparseable=(), lint_fixtures=False):
        """`lint_fixtures`: the documents are `maprules lint` fixtures, checked as lint checks them, without the
        web map's four top-level required keys (lint leaves them to map/no-operational-layers and json/not-a-map)."""
        expected = expected or {}
        counts = {"files": 0, "valid": 0, "expected": 0, "unparseable": 0}
        seen = set()
        print(f"{label}  ({ref})")
        for path in paths:
            name = os.path.basename(path)
            counts["files"] += 1
            try:
                with open(path, "rb") as f:
                    document = json.loads(f.read().decode("utf-8-sig"))
            except (UnicodeDecodeError, ValueError) as exc:
                if name in unparseable:
                    counts["unparseable"] += 1
                    if self.verbose:
                        print(f"  {name}: not JSON, as intended ({type(exc).__name__})")
                else:
                    self.problem(f"{name}: cannot be read as JSON: {exc}")
                continue
            errors = self.errors(ref, document)
            if lint_fixtures:
                errors = [e for e in errors if not (e.validator == "required" and e.validator_value == MAP_LEVEL_REQUIRED)]
            found = {(pointer(e), e.validator) for e in errors}
            if name in expected:
                seen.add(name)
                if found == expected[name]:
                    counts["expected"] += 1
                    if self.verbose:
                        for e in errors:
                            print(f"  {name}: {pointer(e) or '/'}: {e.validator}: {e.message[:160]} (documented)")
                else:
                    self.problem(f"{name}: expected {sorted(expected[name])}, found {sorted(found)}")
                    for e in errors:
                        print(f"    {pointer(e) or '/'}: {e.validator}: {e.message[:200]}")
            elif errors:
                self.problem(f"{name}: {len(errors)} error(s)")
                for e in errors[:20]:
                    print(f"    {pointer(e) or '/'}: {e.validator}: {e.message[:200]}")
            else:
                counts["valid"] += 1
        for name in sorted(set(expected) - seen):
            if any(os.path.basename(p) == name for p in paths):
                continue
            self.problem(f"{name}: documented exception, but the file was not checked")
        summary = f"{counts['files']} files: {counts['valid']} valid"
        if counts["expected"]:
            summary += f", {counts['expected']} documented failure(s)"
        if counts["unparseable"]:
            summary += f", {counts['unparseable']} not JSON (json/ rules)"
        print("  " + summary)
        self.lines.append(f"{label:<40} {summary}")

    def case(self, label, ref, instance, expect):
        """expect: None (must pass) or a set of (pointer, keyword) the errors must be exactly."""
        errors = self.errors(ref, instance)
        found = {(pointer(e), e.validator) for e in errors}
        wanted = expect or set()
        ok = found == wanted and len(errors) == len(wanted)
        if not ok:
            self.problem(f"case '{label}': expected {sorted(wanted) or 'valid'}, found {len(errors)} error(s):")
            for e in errors:
                print(f"    {pointer(e) or '/'}: {e.validator}: {e.message[:200]}")
        elif self.verbose:
            for e in errors:
                print(f"  case '{label}': {pointer(e) or '/'}: {e.validator}: {e.message[:200]}")
        return ok


def load(path):
    with open(path, encoding="utf-8-sig") as f:
        return json.load(f)


def run_cases(c):
    print("cases (hand-made documents that must fail precisely, or pass)")
    trees_path = os.path.join(ROOT, "Samples/TreesOfPortland/TreesOfPortland.json")
    trees = load(trees_path)
    snapshot = load(os.path.join(ROOT, "Samples/TreesOfPortland/TreesOfPortland.services.json"))
    layer_url = next(u for u, v in snapshot.items() if "fields" in v)
    passed = total = 0

    def case(label, ref, instance, expect=None):
        nonlocal passed, total
        total += 1
        passed += c.case(label, ref, instance, expect)

    # web maps
    m = copy.deepcopy(trees)
    m["operationalLayers"][1]["layerType"] = "ArcGISFeaturelayer"
    case("misspelled layerType", "webmap", m, {("/operationalLayers/1/layerType", "enum")})
    case("misspelled layerType in the item wrapper", "webmap",
         {"item": {"id": "abc", "title": "Trees"}, "itemData": m},
         {("/itemData/operationalLayers/1/layerType", "enum")})
    g = copy.deepcopy(trees)
    inner = copy.deepcopy(g["operationalLayers"][0])
    inner["layerType"] = "VectorTilelayer"
    g["operationalLayers"].append({"id": "g1", "title": "Group", "layerType": "GroupLayer",
                                   "layers": [{"id": "g2", "layerType": "GroupLayer", "layers": [inner]}]})
    n = len(g["operationalLayers"]) - 1
    case("misspelled layerType two groups deep", "webmap", g,
         {(f"/operationalLayers/{n}/layers/0/layers/0/layerType", "enum")})
    case("1.x layer without layerType (loose)", "webmap",
         {"version": "1.9", "operationalLayers": [{"id": "a", "url": "https://example.com/arcgis/rest/services/X/MapServer",
                                                   "visibility": True, "opacity": 1, "renderingRule": {}, "vendorKey": 1}],
          "baseMap": {"title": "Topo", "baseMapLayers": [{"id": "b", "url": "https://example.com/MapServer"}]},
          "spatialReference": {"wkid": 102100}})
    case("unknown vendor keys allowed", "webmap", dict(copy.deepcopy(trees), vendorTopLevelKey={"x": 1}))
    m = copy.deepcopy(trees)
    del m["operationalLayers"][1]["popupInfo"]["fieldInfos"][0]["fieldName"]
    case("fieldInfo without fieldName", "webmap", m, {("/operationalLayers/1/popupInfo/fieldInfos/0", "required")})
    m = copy.deepcopy(trees)
    m["operationalLayers"][1]["popupInfo"]["fieldInfos"][0]["stringFieldOption"] = "multiline"
    case("stringFieldOption not in the enum", "webmap", m,
         {("/operationalLayers/1/popupInfo/fieldInfos/0/stringFieldOption", "enum")})
    m = copy.deepcopy(trees)
    m["operationalLayers"][1]["popupInfo"]["popupElements"] = [{"type": "feilds"}]
    case("popupElement type not in the enum", "webmap", m,
         {("/operationalLayers/1/popupInfo/popupElements/0/type", "enum")})
    m = copy.deepcopy(trees)
    m["operationalLayers"][1]["popupInfo"]["popupElements"] = [{"type": "relationship"}]
    case("relationship element without relationshipId", "webmap", m,
         {("/operationalLayers/1/popupInfo/popupElements/0", "required")})
    m = copy.deepcopy(trees)
    m["operationalLayers"][1]["popupInfo"]["expressionInfos"] = [{"name": "x", "returnType": "boolean"}]
    case("expressionInfo without expression, bad returnType", "webmap", m,
         {("/operationalLayers/1/popupInfo/expressionInfos/0", "required"),
          ("/operationalLayers/1/popupInfo/expressionInfos/0/returnType", "enum")})
    m = copy.deepcopy(trees)
    m["operationalLayers"][1]["popupInfo"]["relatedRecordsInfo"] = {"showRelatedRecords": True,
                                                                    "orderByFields": [{"field": "x", "order": "ascending"}]}
    case("orderByFields order not asc/desc", "webmap", m,
         {("/operationalLayers/1/popupInfo/relatedRecordsInfo/orderByFields/0/order", "enum")})
    m = copy.deepcopy(trees)
    m["operationalLayers"][1]["layerDefinition"] = {"minScale": -1, "maxScale": 0}
    case("negative minScale", "webmap", m, {("/operationalLayers/1/layerDefinition/minScale", "minimum")})
    m = copy.deepcopy(trees)
    m["operationalLayers"][1]["visibility"] = "yes"
    case("visibility not a boolean", "webmap", m, {("/operationalLayers/1/visibility", "type")})
    m = copy.deepcopy(trees)
    m["operationalLayers"].append({"id": "fc", "layerType": "ArcGISFeatureLayer", "featureCollection": {"layers": [
        {"layerDefinition": {"geometryType": "esriGeometryPoint",
                             "fields": [{"name": "OBJECTID", "type": "esriFieldTypeOID"}, {"name": "T", "type": "esriFieldTypeText"}]},
         "featureSet": {"geometryType": "esriGeometryPoint", "features": []}}]}})
    n = len(m["operationalLayers"]) - 1
    case("feature collection field type not in the enum", "webmap", m,
         {(f"/operationalLayers/{n}/featureCollection/layers/0/layerDefinition/fields/1/type", "enum")})
    case("version not 1.x/2.x", "webmap", dict(copy.deepcopy(trees), version=2.28), {("/version", "type")})
    # pop-up on its own
    case("Trees pop-up on its own", "popup", trees["operationalLayers"][1]["popupInfo"])
    # services snapshot and layer metadata
    s = copy.deepcopy(snapshot)
    s[layer_url]["fields"][1]["type"] = "esriFieldTypeText"
    case("snapshot field type not in the enum", "services-snapshot", s,
         {(f"/{layer_url.replace('~', '~0').replace('/', '~1')}/fields/1/type", "enum")})
    case("snapshot key not a URL", "services-snapshot", {"FeatureServer/0": snapshot[layer_url]}, {("", "pattern")})
    layer = copy.deepcopy(snapshot[layer_url])
    case("snapshot layer on its own", "layer", layer)
    layer["relationships"] = [{"name": "r", "cardinality": "esriRelCardinalityOneToMany"},
                              {"id": 1, "cardinality": "OneToMany", "role": "esriRelRoleOrigin"}]
    case("relationship without id, bad cardinality", "layer", layer,
         {("/relationships/0", "required"), ("/relationships/1/cardinality", "enum")})
    layer = copy.deepcopy(snapshot[layer_url])
    layer["fields"][1]["domain"] = {"type": "codedValue", "name": "d"}
    layer["fields"][2]["domain"] = {"type": "inherited"}
    layer["fields"][3]["domain"] = {"type": "range", "range": [0]}
    case("domains: codedValues missing, inherited on a field, short range", "layer", layer,
         {("/fields/1/domain", "required"), ("/fields/2/domain/type", "enum"), ("/fields/3/domain/range", "minItems")})
    layer = copy.deepcopy(snapshot[layer_url])
    layer["types"] = [{"id": 1, "name": "t", "domains": {"X": {"type": "inherited"}}, "templates": []}]
    layer["geometryType"] = "esriGeometryPoint"
    case("inherited domain in types[]", "layer", layer)
    layer["geometryType"] = "esriGeometryPoints"
    case("geometryType not in the enum", "layer", layer, {("/geometryType", "enum")})
    # edit scripts: the example of edit-scripts.md, then mistakes
    script = {
        "service": "https://127.0.0.1:8443/arcgis/rest/services/DamageAssessment/FeatureServer",
        "map": "../TreesOfPortland/webmap.json",
        "steps": [
            {"createVersion": {"name": "Fix1", "access": "private", "description": "storm crew 3"}, "save": "v"},
            {"switchVersion": {"to": "$v.versionName", "pending": "apply"}},
            {"query": {"layer": 0, "where": "typdamage = 'Minor'", "orderBy": "objectid", "limit": 1}, "save": "hit"},
            {"updateAttributes": {"layer": 0, "objectId": "$hit.features.0.objectid", "attributes": {"typdamage": "Major"}}},
            {"moveFeature": {"layer": 0, "objectId": "$hit.features.0.objectid",
                             "geometry": {"x": -88.15, "y": 41.77, "spatialReference": {"wkid": 4326}}}},
            {"applyEdits": {}},
            {"expect": {"layer": 0, "where": "objectid = $hit.features.0.objectid", "count": 1, "attributes": {"typdamage": "Major"}}},
            {"switchVersion": {"to": "sde.DEFAULT"}},
            {"expect": {"layer": 0, "where": "objectid = $hit.features.0.objectid", "attributes": {"typdamage": "Minor"}}},
            {"addFeature": {"layer": "Trails", "attributes": {"name": "x"}, "geometry": {"paths": [[[0, 0], [1, 1]]]}},
             "expectFailure": "add-feature/not-point"},
        ],
    }
    case("edit-scripts.md example", "edit-script", script)
    more = copy.deepcopy(script)
    more["steps"] += [
        {"signIn": {"user": "editor01", "password": "x"}},
        {"fetchVersions": None, "save": "all"},
        {"relate": {"layer": "Trees", "objectId": 3, "relationship": "Inspections", "add": {"Condition": "Good"}}, "save": "i"},
        {"relate": {"layer": "Trees", "objectId": 3, "relationship": 0, "to": 5}},
        {"addAttachment": {"layer": 0, "objectId": "$hit.features.0.objectid", "file": "photo.jpg", "contentType": "image/jpeg"}, "save": "a"},
        {"deleteAttachment": {"layer": 0, "objectId": 3, "attachmentId": "$a.attachmentId"}},
        {"deleteFeature": {"layer": 0, "objectId": -1}},
        {"undoLocalEdits": {}},
        {"expectLocalEdits": False},
        {"createVersion": {"name": "bad", "access": "secret"}, "expectFailure": "version/access-invalid"},
        {"query": {"layer": 0, "objectIds": [1, 2, "$hit.features.0.objectid"], "geometry": {"xmin": 0, "ymin": 0, "xmax": 1, "ymax": 1},
                   "spatialRelationship": "esriSpatialRelIntersects", "offset": 0}},
        {"updateAttributes": {"layer": 0, "objectId": 1, "attributes": {"typdamage": "x"}}, "expectFailure": 11007},
    ]
    case("every operation", "edit-script", more)
    bad = copy.deepcopy(script)
    bad["steps"][0]["createVersion"]["access"] = "secret"
    case("createVersion access not in the enum", "edit-script", bad, {("/steps/0/createVersion/access", "enum")})
    bad = copy.deepcopy(script)
    bad["steps"].append({"deleteFeatures": {"layer": 0, "objectId": 1}})
    n = len(bad["steps"]) - 1
    case("unknown operation", "edit-script", bad, {(f"/steps/{n}", "additionalProperties")})
    bad = copy.deepcopy(script)
    bad["steps"][5] = {"applyEdits": {}, "undoLocalEdits": {}}
    case("two operations in one step", "edit-script", bad, {("/steps/5", "oneOf")})
    bad["steps"][5] = {"save": "x"}
    case("a step without an operation", "edit-script", bad, {("/steps/5", "oneOf")})
    bad = copy.deepcopy(script)
    bad["steps"][3]["updateAttributes"]["objectId"] = "hit.features.0.objectid"
    case("objectId string that is not a reference", "edit-script", bad, {("/steps/3/updateAttributes/objectId", "pattern")})
    bad = copy.deepcopy(script)
    bad["steps"][1]["switchVersion"]["pending"] = "keep"
    case("pending not apply/discard", "edit-script", bad, {("/steps/1/switchVersion/pending", "enum")})
    bad = copy.deepcopy(script)
    bad["steps"][2]["query"]["limit"] = "1"
    case("limit of the wrong type", "edit-script", bad, {("/steps/2/query/limit", "pattern")})
    bad = copy.deepcopy(script)
    bad["steps"][6]["expect"] = {"layer": 0, "where": "1=1"}
    case("expect with nothing to check", "edit-script", bad, {("/steps/6/expect", "anyOf")})
    bad = copy.deepcopy(script)
    bad["timeout"] = 5
    case("unknown top-level key", "edit-script", bad, {("", "additionalProperties")})
    summary = f"{total} cases: {passed} as expected"
    print("  " + summary)
    c.lines.append(f"{'hand-made cases':<40} {summary}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", default=os.environ.get("MAPRULES_CORPUS", os.path.join(ROOT, "Tests", "Fixtures", "corpus")))
    parser.add_argument("--verbose", "-v", action="store_true", help="also print the documented failures")
    args = parser.parse_args()

    c = Checker(args.verbose)
    print(f"{len(c.schemas)} schemas valid against the draft 2020-12 meta-schema: {', '.join(sorted(c.schemas))}")
    c.lines.append(f"{'schemas (meta-schema)':<40} {len(c.schemas)} valid")
    corpus = os.path.abspath(args.corpus)
    if os.path.isdir(os.path.join(corpus, "webmaps")):
        c.check_files("corpus web maps", "webmap", sorted(glob.glob(os.path.join(corpus, "webmaps", "*.json"))),
                      EXPECTED_FAILURES["webmaps"])
    else:
        print(f"corpus not found at {corpus}: corpus checks skipped (--corpus DIR)")
        c.lines.append(f"{'corpus':<40} skipped (not found)")
    c.check_files("sample maps", "webmap", [os.path.join(ROOT, p) for p in (
        "Samples/TreesOfPortland/TreesOfPortland.json", "Samples/DamageAssessment/DamageAssessment.json")])
    broken = sorted(p for p in glob.glob(os.path.join(ROOT, "Samples", "Broken", "*.json")) if not p.endswith(".services.json"))
    c.check_files("Samples/Broken maps", "webmap", broken, EXPECTED_FAILURES["broken"], EXPECTED_UNPARSEABLE, lint_fixtures=True)
    c.check_files("services snapshots (Samples)", "services-snapshot",
                  sorted(glob.glob(os.path.join(ROOT, "Samples", "**", "*.services.json"), recursive=True)))
    if os.path.isdir(os.path.join(corpus, "services")):
        services = sorted(glob.glob(os.path.join(corpus, "services", "*.json")))
        pick = lambda ids: [p for p in services if os.path.basename(p)[:3] in ids]
        c.check_files("corpus layer/table metadata", "layer", pick(LAYER_FILES), EXPECTED_FAILURES["layers"])
        c.check_files("corpus service documents", BASE + "layer.schema.json#/$defs/serviceRoot", pick(SERVICE_ROOT_FILES))
        unlisted = [os.path.basename(p) for p in services
                    if os.path.basename(p)[:3] not in set(LAYER_FILES) | set(SERVICE_ROOT_FILES) | set(NOT_CHECKED)]
        if unlisted:
            c.problem(f"corpus service files not classified: {unlisted}")
    run_cases(c)

    print("\nSummary")
    for line in c.lines:
        print("  " + line)
    print(f"  {'unexpected results':<40} {c.problems}")
    return 1 if c.problems else 0


if __name__ == "__main__":
    sys.exit(main())
