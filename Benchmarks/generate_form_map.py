#!/usr/bin/env python3
"""A web map of N layers (default 500) each with a form of M field elements (default 50, in groups of ten, every
fifth with a visibility expression, every tenth calculated), and its services snapshot: the forms benchmark's input.

    python3 Benchmarks/generate_form_map.py OUT_DIR [LAYERS] [ELEMENTS]   # writes OUT_DIR/forms.json and forms.services.json
"""
import json
import os
import sys


def main(argv):
    out = argv[1]
    layers_n = int(argv[2]) if len(argv) > 2 else 500
    elements_n = int(argv[3]) if len(argv) > 3 else 50
    url = "https://example.com/arcgis/rest/services/Forms/FeatureServer/%d"
    fields = [{"name": "OBJECTID", "type": "esriFieldTypeOID", "nullable": False, "editable": False}] + [
        {"name": "F%d" % i, "type": "esriFieldTypeString", "length": 50, "nullable": True, "editable": True}
        for i in range(elements_n)]
    layers, snapshot = [], {}
    for n in range(layers_n):
        elements = []
        for i in range(elements_n):
            element = {"type": "field", "fieldName": "F%d" % i, "label": "Field %d" % i,
                       "inputType": {"type": "text-box", "maxLength": 50}}
            if i % 5 == 0:
                element["visibilityExpression"] = "expr/visible"
            if i % 10 == 3:
                element["valueExpression"] = "expr/value"
            elements.append(element)
        form = {"title": "Form %d" % n, "preserveFieldValuesWhenHidden": True,
                "expressionInfos": [
                    {"name": "expr/visible", "expression": "!IsEmpty($feature.F1)", "returnType": "boolean"},
                    {"name": "expr/value", "expression": "Upper($feature.F2) + Text(Count([1, 2, 3]))", "returnType": "string"}],
                "formElements": [{"type": "group", "label": "Group %d" % g, "formElements": elements[g * 10:(g + 1) * 10]}
                                 for g in range((elements_n + 9) // 10)]}
        layers.append({"id": "L%d" % n, "title": "Layer %d" % n, "layerType": "ArcGISFeatureLayer", "url": url % n,
                       "popupInfo": {"title": "{F1}", "fieldInfos": [{"fieldName": "F1", "label": "F1", "visible": True}]},
                       "formInfo": form})
        snapshot[url % n] = {"id": n, "name": "L%d" % n, "type": "Feature Layer", "geometryType": "esriGeometryPoint",
                             "objectIdField": "OBJECTID", "capabilities": "Create,Query,Update,Editing",
                             "hasAttachments": False, "fields": fields}
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "forms.json"), "w") as fh:
        json.dump({"operationalLayers": layers, "baseMap": {"title": "Basemap", "baseMapLayers": []}, "version": "2.28"}, fh, indent=1)
    with open(os.path.join(out, "forms.services.json"), "w") as fh:
        json.dump(snapshot, fh, indent=1)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
