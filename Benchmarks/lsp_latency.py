#!/usr/bin/env python3
"""Times `maprules lsp` re-linting a large map after each change (helper of Benchmarks/lsp-latency.sh).

Opens MAP in a `maprules lsp` started from MAPRULES, then sends RUNS incremental changes (each edits a pop-up
label, alternately breaking and mending a field name so that the diagnostics change) and measures the time from
writing each didChange to reading its publishDiagnostics. Prints one JSON line: sizes and milliseconds.
"""
import json, os, re, subprocess, sys, time

def main():
    binary, path, runs = sys.argv[1], os.path.abspath(sys.argv[2]), int(sys.argv[3])
    text = open(path, encoding="utf-8").read()
    proc = subprocess.Popen([binary, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def send(obj):
        body = json.dumps(obj).encode()
        proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        proc.stdin.flush()

    def receive():
        header = b""
        while not header.endswith(b"\r\n\r\n"):
            byte = proc.stdout.read(1)
            if not byte:
                raise SystemExit("maprules lsp ended")
            header += byte
        length = int([l for l in header.decode().split("\r\n") if l.lower().startswith("content-length")][0].split(":")[1])
        return json.loads(proc.stdout.read(length))

    def diagnostics():
        while True:
            message = receive()
            if message.get("method") == "textDocument/publishDiagnostics":
                return message["params"]

    uri = "file://" + path
    send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}})
    receive()
    started = time.perf_counter()
    send({"jsonrpc": "2.0", "method": "textDocument/didOpen",
          "params": {"textDocument": {"uri": uri, "languageId": "json", "version": 1, "text": text}}})
    first = diagnostics()
    open_ms = (time.perf_counter() - started) * 1000
    # The first `"fieldName": "X"` of the text: the change renames X and back.
    offset = re.search(r'"fieldName"\s*:\s*"', text).end()
    line = text.count("\n", 0, offset)
    character = len(text[text.rfind("\n", 0, offset) + 1:offset].encode("utf-16-le")) // 2
    name = text[offset:text.index('"', offset)]
    times = []
    current = name
    for run in range(runs):
        replacement = name + "Typo" if run % 2 == 0 else name
        start = {"line": line, "character": character}
        end = {"line": line, "character": character + len(current.encode("utf-16-le")) // 2}
        began = time.perf_counter()
        send({"jsonrpc": "2.0", "method": "textDocument/didChange",
              "params": {"textDocument": {"uri": uri, "version": run + 2},
                         "contentChanges": [{"range": {"start": start, "end": end}, "text": replacement}]}})
        published = diagnostics()
        times.append((time.perf_counter() - began) * 1000)
        current = replacement
        assert published["version"] == run + 2
    send({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
    receive()
    send({"jsonrpc": "2.0", "method": "exit"})
    proc.wait(timeout=10)
    times.sort()
    print(json.dumps({"bytes": len(text.encode()), "diagnostics": len(first["diagnostics"]), "open_ms": round(open_ms, 1),
                      "median_ms": round(times[len(times) // 2], 1), "p95_ms": round(times[int(len(times) * 0.95) - 1], 1),
                      "max_ms": round(times[-1], 1), "runs": runs}))

if __name__ == "__main__":
    main()
