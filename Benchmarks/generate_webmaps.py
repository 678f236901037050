#!/usr/bin/env python3
"""Generate large, realistic web maps for the lint throughput benchmark (Benchmarks/lint-throughput.sh).

    python3 Benchmarks/generate_webmaps.py                       # 1,000 maps of ~100 KB into Benchmarks/generated
    python3 Benchmarks/generate_webmaps.py --count 50 --size-kb 20 --out /tmp/maps

Every map starts from one of the shipped samples (Samples/TreesOfPortland, Samples/DamageAssessment) and grows:
- the sample's service-backed layers and tables are repeated with new ids and titles (same URLs, so their
  metadata resolves from the snapshot); about one copied pop-up in ten names a misspelt field, so the
  rules find something to report;
- inline `featureCollection` layers are added, built from the sample's layer metadata and its features
  (`Samples/*/features/<n>.json`, repeated with new object ids, GlobalIDs and nudged positions), until the
  file reaches the target size.
Maps go into folders of 100 (`batch-000/` ...), each with one `services.json` (both samples' snapshots), as
`maprules lint DIR` finds them. One map in two is minified (as a portal stores item data), the others are
indented by two spaces. Standard library only; deterministic (fixed seeds): the same arguments give the same
bytes.
"""

import argparse
import copy
import json
import os
import random
import shutil
import sys
import uuid

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SAMPLES = ["TreesOfPortland", "DamageAssessment"]
PER_FOLDER = 100


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


class Sample:
    """One shipped sample: its map, its services snapshot, and the features of each layer it has."""

    def __init__(self, name):
        folder = os.path.join(REPO, "Samples", name)
        self.name = name
        self.map = load(os.path.join(folder, name + ".json"))
        self.services = load(os.path.join(folder, name + ".services.json"))
        self.features = {}
        features_dir = os.path.join(folder, "features")
        for entry in sorted(os.listdir(features_dir)):
            if entry.endswith(".json"):
                self.features[int(entry[:-5])] = load(os.path.join(features_dir, entry))
        # Layers (not tables) that have both metadata with a geometry and features: sources for inline layers.
        self.inline_sources = []
        for url, metadata in self.services.items():
            tail = url.rsplit("/", 1)[-1]
            if tail.isdigit() and metadata.get("geometryType") and int(tail) in self.features:
                self.inline_sources.append((metadata, self.features[int(tail)]))
        if not self.inline_sources:
            raise SystemExit(f"generate_webmaps.py: sample {name} has no layer with features to build inline layers from")


def misspell(name, rng):
    """A plausible typo: two neighbouring letters swapped (Condition -> Conditoin)."""
    if len(name) < 3:
        return name + "x"
    i = rng.randrange(1, len(name) - 1)
    return name[:i] + name[i + 1] + name[i] + name[i + 2:]


def copy_layer(layer, copy_index, rng):
    layer = copy.deepcopy(layer)
    layer["id"] = f"{layer.get('id', 'layer')}_copy{copy_index}"
    layer["title"] = f"{layer.get('title', 'Layer')} ({copy_index + 1})"
    popup = layer.get("popupInfo")
    if isinstance(popup, dict) and popup.get("fieldInfos") and rng.random() < 0.1:
        info = rng.choice(popup["fieldInfos"])
        if isinstance(info.get("fieldName"), str):
            info["fieldName"] = misspell(info["fieldName"], rng)
    return layer


def inline_layer(sample, index, feature_count, rng):
    """An ArcGISFeatureLayer with a featureCollection built from one of the sample's layers."""
    metadata, feature_set = sample.inline_sources[index % len(sample.inline_sources)]
    definition = {key: copy.deepcopy(metadata[key]) for key in (
        "name", "type", "geometryType", "objectIdField", "globalIdField", "displayField", "fields",
        "capabilities", "hasAttachments", "minScale", "maxScale", "drawingInfo", "extent") if key in metadata}
    definition["name"] = f"{metadata.get('name', 'Layer')} snapshot {index + 1}"
    oid_field = metadata.get("objectIdField", "OBJECTID")
    gid_field = metadata.get("globalIdField")
    source = feature_set["features"]
    features = []
    for n in range(feature_count):
        feature = copy.deepcopy(source[n % len(source)])
        attributes = feature.setdefault("attributes", {})
        attributes[oid_field] = n + 1
        if gid_field:
            attributes[gid_field] = "{" + str(uuid.UUID(int=rng.getrandbits(128), version=4)).upper() + "}"
        geometry = feature.get("geometry")
        if isinstance(geometry, dict) and "x" in geometry and "y" in geometry:
            geometry["x"] = round(geometry["x"] + rng.uniform(-0.01, 0.01), 6)
            geometry["y"] = round(geometry["y"] + rng.uniform(-0.01, 0.01), 6)
        features.append(feature)
    popup = None
    for layer in sample.map.get("operationalLayers", []):
        if layer.get("url", "").endswith("/" + str(metadata.get("id"))) and isinstance(layer.get("popupInfo"), dict):
            popup = copy.deepcopy(layer["popupInfo"])
    sub = {
        "layerDefinition": definition,
        "featureSet": {
            "geometryType": feature_set.get("geometryType", metadata.get("geometryType")),
            "spatialReference": feature_set.get("spatialReference", {"wkid": 4326}),
            "features": features,
        },
    }
    if popup:
        sub["popupInfo"] = popup
    return {
        "id": f"{sample.name}_inline_{index}",
        "title": f"{definition['name']}",
        "layerType": "ArcGISFeatureLayer",
        "visibility": True,
        "opacity": 1,
        "featureCollection": {"layers": [sub]},
    }


def dump(document, minified):
    if minified:
        return json.dumps(document, separators=(",", ":"), ensure_ascii=False)
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def make_map(sample, number, target_bytes, minified):
    rng = random.Random(number)
    document = copy.deepcopy(sample.map)
    base_layers = list(document.get("operationalLayers", []))
    base_tables = list(document.get("tables", []))
    # Three more copies of every service-backed layer and table.
    for copy_index in range(1, 4):
        document["operationalLayers"] += [copy_layer(layer, copy_index, rng) for layer in base_layers]
        if base_tables:
            document["tables"] += [copy_layer(table, copy_index, rng) for table in base_tables]
    # Inline layers, sized from a trial dump so that the file lands close to the target.
    inline_index = 0
    while True:
        size = len(dump(document, minified).encode("utf-8"))
        remaining = target_bytes - size
        if remaining < 2048:
            break
        probe = inline_layer(sample, inline_index, 10, random.Random(number * 7919 + inline_index))
        per_feature = max(64, len(dump(probe, minified).encode("utf-8")) // 10)
        count = max(1, min(400, remaining // per_feature))
        document["operationalLayers"].append(inline_layer(sample, inline_index, count, rng))
        inline_index += 1
    return dump(document, minified)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=1000, help="number of maps (default 1000)")
    parser.add_argument("--size-kb", type=int, default=100, help="approximate size of each map in KB (default 100)")
    parser.add_argument("--out", default=os.path.join(REPO, "Benchmarks", "generated"),
                        help="output folder, emptied first (default Benchmarks/generated)")
    args = parser.parse_args()
    if args.count < 1 or args.size_kb < 8:
        parser.error("--count must be at least 1 and --size-kb at least 8")

    samples = [Sample(name) for name in SAMPLES]
    snapshot = {}
    for sample in samples:
        snapshot.update(sample.services)
    services = json.dumps(snapshot, indent=2) + "\n"

    if os.path.isdir(args.out):
        shutil.rmtree(args.out)
    os.makedirs(args.out)
    total = 0
    for number in range(args.count):
        folder = os.path.join(args.out, f"batch-{number // PER_FOLDER:03d}")
        if number % PER_FOLDER == 0:
            os.makedirs(folder)
            with open(os.path.join(folder, "services.json"), "w", encoding="utf-8") as f:
                f.write(services)
        sample = samples[number % len(samples)]
        text = make_map(sample, number, args.size_kb * 1000, minified=(number // 2) % 2 == 0)
        data = text.encode("utf-8")
        total += len(data)
        with open(os.path.join(folder, f"{sample.name}-{number:04d}.json"), "wb") as f:
            f.write(data)
    print(f"generate_webmaps.py: {args.count} maps, {total} bytes ({total / args.count / 1000:.1f} KB each on average) "
          f"in {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
