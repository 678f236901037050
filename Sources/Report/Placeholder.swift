import WebMap
