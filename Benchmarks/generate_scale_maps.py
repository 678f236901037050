#!/usr/bin/env python3
"""Generate the two inputs of Benchmarks/lint-scale.sh: a map of many layers, and a map with one huge expression.

    python3 Benchmarks/generate_scale_maps.py layers --layers 100000 --out DIR   # DIR/layers.json + DIR/layers.services.json
    python3 Benchmarks/generate_scale_maps.py arcade --bytes 1000000 --out DIR   # DIR/arcade.json + DIR/arcade.services.json

`layers`: LAYERS feature layers shaped like the shipped Trees layer (Samples/TreesOfPortland): a pop-up titled
`{Address}` with eight field infos (six shown, two editable), a fields element, an attachments element and one
Arcade expression (`Upper($feature.Address) + ' (' + $feature.Condition + ')'`). The metadata comes from a
services snapshot, as `maprules lint` reads it beside a map: SERVICES feature services (default 100) of ten
layers each, every layer the same tree schema with attachments and global ids; map layer k uses service layer
k mod (SERVICES x 10), so each service layer is the source of many map layers (as views of one layer with
different filters are). The map lints clean: every layer is resolved and every rule runs without a finding.
With --distinct-expressions, layer k's expression ends with its own string literal (`+ ' #k'`), so no two
layers share an expression text (maprules analyses each distinct text once; the default map has only one).
With --insecure-every N, every Nth layer (0, N, 2N...) names its service over plain `http://` (the snapshot knows
the service under both schemes, so the layer still resolves): one `map/insecure-url` warning a layer, the map's
only findings (each finding names its layer, which a linter must find among the map's layers).

`arcade`: one Trees layer whose only pop-up expression is BYTES of Arcade (default 1,000,000) made of
statements, lines of twenty calls of `Q()`, a function Arcade does not have: one `arcade/unknown-function`
error per call (about 250,000 in 1 MB), and no other finding. Statements, not one long operator chain, so the
parser's nesting limit is not what is measured.

Standard library only; deterministic: the same arguments give the same bytes. The map is written minified (as a
portal stores it) unless --indented.
"""

import argparse
import json
import os
import sys

FIELDS = [
    {"name": "OBJECTID", "type": "esriFieldTypeOID", "alias": "OBJECTID", "nullable": False, "editable": False},
    {"name": "Address", "type": "esriFieldTypeString", "alias": "Address", "length": 100, "nullable": False, "editable": True},
    {"name": "Condition", "type": "esriFieldTypeString", "alias": "Condition", "length": 20, "nullable": True, "editable": True},
    {"name": "Species", "type": "esriFieldTypeString", "alias": "Species", "length": 50, "nullable": True, "editable": True},
    {"name": "DBH", "type": "esriFieldTypeDouble", "alias": "DBH (in)", "nullable": True, "editable": True},
    {"name": "Inspector", "type": "esriFieldTypeString", "alias": "Inspector", "length": 50, "nullable": True, "editable": True},
    {"name": "Notes", "type": "esriFieldTypeString", "alias": "Notes", "length": 500, "nullable": True, "editable": True},
    {"name": "GlobalID", "type": "esriFieldTypeGlobalID", "alias": "GlobalID", "length": 38, "nullable": False, "editable": False},
]
POPUP_FIELDS = [  # (field, label, visible, editable)
    ("Address", "Address", True, True), ("Condition", "Condition", True, False), ("Species", "Species", True, False),
    ("DBH", "DBH (in)", True, False), ("Inspector", "Inspector", True, False), ("Notes", "Notes", True, True),
    ("OBJECTID", "OBJECTID", False, False), ("GlobalID", "GlobalID", False, False),
]
LAYERS_PER_SERVICE = 10


def service_url(service):
    return f"https://maprules.example.com/arcgis/rest/services/Trees{service:03d}/FeatureServer"


def popup(expressions):
    fields = [{"fieldName": f, "label": label, "visible": visible, "isEditable": editable} for f, label, visible, editable in POPUP_FIELDS]
    fields.insert(0, {"fieldName": "expression/summary", "label": "Summary", "visible": True})
    return {
        "title": "{Address}",
        "fieldInfos": fields,
        "popupElements": [{"type": "fields"}, {"type": "attachments", "displayType": "auto"}],
        "expressionInfos": [{"name": "summary", "title": "Summary", "expression": e, "returnType": "string"} for e in expressions],
        "showAttachments": True,
    }


def map_layer(index, url, expression):
    return {"id": f"Trees_{index:06d}", "title": f"Trees {index}", "layerType": "ArcGISFeatureLayer", "url": url,
            "visibility": True, "opacity": 1, "popupInfo": popup([expression])}


def snapshot(services):
    """The services snapshot: each service's description and each of its layers' descriptions, keyed by URL."""
    result = {}
    for s in range(services):
        url = service_url(s)
        result[url] = {
            "currentVersion": 11.1, "serviceDescription": f"Trees {s}", "hasVersionedData": False,
            "capabilities": "Create,Delete,Query,Update,Uploads,Editing", "maxRecordCount": 2000,
            "spatialReference": {"wkid": 102100, "latestWkid": 3857},
            "layers": [{"id": i, "name": f"Trees{i}", "geometryType": "esriGeometryPoint"} for i in range(LAYERS_PER_SERVICE)],
            "tables": [],
        }
        for i in range(LAYERS_PER_SERVICE):
            result[f"{url}/{i}"] = {
                "currentVersion": 11.1, "id": i, "name": f"Trees{i}", "type": "Feature Layer", "geometryType": "esriGeometryPoint",
                "hasAttachments": True, "objectIdField": "OBJECTID", "globalIdField": "GlobalID", "displayField": "Address",
                "capabilities": "Create,Delete,Query,Update,Uploads,Editing", "fields": FIELDS, "relationships": [],
            }
    return result


def document(layers):
    return {
        "operationalLayers": layers,
        "baseMap": {"title": "Topographic", "baseMapLayers": [{
            "id": "World_Topo_Map_1702", "title": "World Topographic Map", "layerType": "ArcGISTiledMapServiceLayer",
            "url": "https://services.arcgisonline.com/ArcGIS/rest/services/World_Topo_Map/MapServer", "visibility": True, "opacity": 1}]},
        "spatialReference": {"wkid": 102100, "latestWkid": 3857},
        "version": "2.28",
    }


def layers_map(count, services, distinct, insecure_every=0):
    service_layers = services * LAYERS_PER_SERVICE
    expression = "Upper($feature.Address) + ' (' + $feature.Condition + ')'"

    def url(k):
        text = f"{service_url((k % service_layers) // LAYERS_PER_SERVICE)}/{k % LAYERS_PER_SERVICE}"
        return "http://" + text[len("https://"):] if insecure_every and k % insecure_every == 0 else text

    layers = [map_layer(k, url(k), expression + f" + ' #{k}'" if distinct else expression) for k in range(count)]
    services_json = snapshot(services)
    if insecure_every:
        services_json.update({"http://" + key[len("https://"):]: value for key, value in list(services_json.items())})
    return document(layers), services_json


def arcade_expression(size):
    """Lines of twenty `Q();` calls (81 bytes with the newline) until SIZE bytes; returns (text, calls)."""
    line = "Q();" * 20 + "\n"
    lines = max(1, size // len(line))
    return line * lines, lines * 20


def arcade_map(size):
    text, calls = arcade_expression(size)
    layer = map_layer(0, f"{service_url(0)}/0", text)
    return document([layer]), snapshot(1), calls


def write(out, stem, map_document, services, indented):
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, f"{stem}.json")
    text = json.dumps(map_document, indent=2) + "\n" if indented else json.dumps(map_document, separators=(",", ":"))
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    with open(os.path.join(out, f"{stem}.services.json"), "w", encoding="utf-8") as f:
        json.dump(services, f, separators=(",", ":"))
    return path, len(text.encode("utf-8"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("kind", choices=["layers", "arcade"], help="which map to write")
    parser.add_argument("--layers", type=int, default=100000, help="layers: number of feature layers (default 100000)")
    parser.add_argument("--services", type=int, default=100, help="layers: feature services in the snapshot (default 100)")
    parser.add_argument("--bytes", type=int, default=1000000, help="arcade: size of the expression (default 1000000)")
    parser.add_argument("--distinct-expressions", action="store_true",
                        help="layers: each layer's expression names its own index (default: one text shared by all)")
    parser.add_argument("--insecure-every", type=int, default=0, metavar="N",
                        help="layers: every Nth layer's URL is plain http:// (one map/insecure-url warning each; default none)")
    parser.add_argument("--indented", action="store_true", help="indent the map (default: minified)")
    parser.add_argument("--out", required=True, help="the folder to write into (created)")
    args = parser.parse_args()
    if args.layers < 1 or args.services < 1 or args.bytes < 1 or args.insecure_every < 0:
        parser.error("--layers, --services and --bytes must be at least 1, --insecure-every at least 0")
    if args.kind == "layers":
        map_document, services = layers_map(args.layers, args.services, args.distinct_expressions, args.insecure_every)
        path, size = write(args.out, "layers", map_document, services, args.indented)
        kind = "distinct expressions" if args.distinct_expressions else "one shared expression"
        print(f"generate_scale_maps.py: {args.layers} layers ({kind}) over {args.services * LAYERS_PER_SERVICE} service layers, "
              f"{size} bytes in {path}", file=sys.stderr)
    else:
        map_document, services, calls = arcade_map(args.bytes)
        path, size = write(args.out, "arcade", map_document, services, args.indented)
        print(f"generate_scale_maps.py: one expression of {calls} unknown calls, {size} bytes in {path}", file=sys.stderr)
        print(calls)


if __name__ == "__main__":
    main()
