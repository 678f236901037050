#!/usr/bin/env python3
"""Generate one large web map whose every layer is a finding, for Benchmarks/findings-scaling.sh.

    python3 Benchmarks/generate_findings_map.py --layers 20000 --out /tmp/findings/map.json
    python3 Benchmarks/generate_findings_map.py --layers 20000 --minified --out /tmp/findings/map-min.json

The map has LAYERS feature layers, each with a pop-up of a few fields (about 1.25 KB per layer indented, so
20,000 layers make a map of about 25 MB), all on services that no snapshot holds: `maprules lint` reports
one `map/unresolved-layer` warning per layer, and nothing else. With `--rule map/unresolved-layer=off` the
same map yields no finding, which is the baseline the benchmark compares with. No `services.json` is written
(the folder must not hold one). Standard library only; deterministic: the same arguments give the same bytes.
"""

import argparse
import json
import os
import sys

FIELDS = ["Address", "Condition", "Species", "Inspector", "Notes"]


def layer(index):
    service = f"https://example.com/arcgis/rest/services/Unrecorded{index // 100:03d}/FeatureServer/{index % 100}"
    return {
        "id": f"Layer_{index:05d}",
        "title": f"Layer {index}",
        "layerType": "ArcGISFeatureLayer",
        "url": service,
        "visibility": True,
        "opacity": 1,
        "popupInfo": {
            "title": "{Address}",
            "fieldInfos": [
                {"fieldName": name, "label": name, "visible": True, "isEditable": name != "Inspector"}
                for name in FIELDS
            ],
            "popupElements": [{"type": "fields"}, {"type": "attachments"}],
        },
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--layers", type=int, default=20000, help="number of feature layers (default 20000)")
    parser.add_argument("--minified", action="store_true", help="write the map on one line, as a portal stores it")
    parser.add_argument("--out", required=True, help="the map file to write (its folder is created)")
    args = parser.parse_args()
    if args.layers < 1:
        parser.error("--layers must be at least 1")
    document = {
        "operationalLayers": [layer(i) for i in range(args.layers)],
        "baseMap": {"title": "Topographic", "baseMapLayers": []},
        "version": "2.28",
    }
    text = json.dumps(document, separators=(",", ":")) if args.minified else json.dumps(document, indent=2) + "\n"
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"generate_findings_map.py: {args.layers} layers, {len(text.encode('utf-8'))} bytes in {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
