#!/usr/bin/env python3
"""Helper of Benchmarks/service-throughput.sh (standard library only).

Subcommands:
  folders  OUT N_QUERY N_VERSION   sample folders for `maprules serve`, made from Samples/DamageAssessment:
                                   OUT/Bench100k (layer 0 holds N_QUERY points), OUT/Bench1k and OUT/Bench1M
                                   (layer 0 holds N_VERSION points each; Bench1M is grown later by `grow`)
  grow     DB SERVICE ROWS          grows layer 0 of SERVICE to ROWS live rows by copying the rows the server
                                   loaded (new object ids and global ids), in bulk, straight into SQLite
  check    BASE SERVICE N           sanity check of paged queries (right ids, 100 features, no error)
  edits    BASE SERVICE TOKEN TOTAL BATCH   (b) over HTTP: applyEdits adds in batches, one connection
  versions SBASE STOKEN SMALL LBASE LTOKEN LARGE RUNS   (c) over HTTP: create versions in turns on two servers
  raw-query   DB SERVICE N PAGES   (a) raw: the service's page SELECT in Python's sqlite3
  raw-edits   DB SERVICE TOTAL BATCH   (b) raw: the rows (b) wrote, inserted again in BATCH-row transactions
  raw-version DB SMALL LARGE RUNS  (c) raw: one version row inserted per transaction, each database
  pages BASE SERVICE N PID SIZE R  (e) pages of SIZE as Esri JSON, ordered by OBJECTID (ASC, DESC) and as GeoJSON, at
                                   offsets 0, N/2, N-100: median ms and the server's (PID) CPU ms per request
PostgreSQL (`--postgres`; psql and pgbench, from PATH or /usr/lib/postgresql/*/bin):
  pg-url      URL DATABASE         URL with its database replaced by DATABASE (query string kept)
  pg-grow     URL SERVICE ROWS     as `grow`, in SQL in the URL's database (then VACUUM ANALYZE)
  pg-raw-query   URL SERVICE N PAGES   (a) raw: the service's page SELECTs with pgbench, one client, prepared
  pg-raw-edits   URL SERVICE TOTAL BATCH   (b) raw: as raw-edits, statements sent by psql, two per row
  pg-raw-version SURL LURL RUNS    (c) raw: as raw-version, with pgbench, one client

Each measuring subcommand prints one line of numbers on standard output; progress goes to standard error.
"""
import glob
import http.client
import json
import os
import random
import re
import shutil
import sqlite3
import statistics
import subprocess
import tempfile
import sys
import time
import urllib.parse
import uuid

SAMPLE = "Samples/DamageAssessment"
SAMPLE_SERVICE = "DamageAssessment"


def say(text):
    print(f"service_bench.py: {text}", file=sys.stderr, flush=True)


def guid():
    return "{" + str(uuid.uuid4()).upper() + "}"


# --- folders ------------------------------------------------------------------------------------------------

def make_folder(out, name, count, rng):
    folder = os.path.join(out, name)
    if os.path.exists(folder):
        shutil.rmtree(folder)
    os.makedirs(os.path.join(folder, "features"))
    with open(os.path.join(SAMPLE, f"{SAMPLE_SERVICE}.services.json"), encoding="utf-8") as f:
        text = f.read()
    # The service is named after its root URL: rename it, so that several copies live in one database.
    text = text.replace(f"/services/{SAMPLE_SERVICE}/", f"/services/{name}/")
    with open(os.path.join(folder, f"{name}.services.json"), "w", encoding="utf-8") as f:
        f.write(text)
    with open(os.path.join(folder, "service.json"), "w", encoding="utf-8") as f:
        json.dump({"branchVersioned": True, "defaultVersionAccess": "public", "allowAnonymousQuery": True}, f)
    with open(os.path.join(SAMPLE, "features", "0.json"), encoding="utf-8") as f:
        sample = json.load(f)
    templates = sample["features"]
    features = []
    for i in range(1, count + 1):
        template = templates[i % len(templates)]
        attributes = dict(template["attributes"])
        attributes["objectid"] = i
        attributes["globalid"] = guid()
        attributes["placename"] = f"{attributes.get('placename') or 'Place'} {i}"
        attributes["estloss"] = float(rng.randrange(1000, 500000))
        x = -88.25 + (i % 1000) * 0.0002 + rng.random() * 0.0001
        y = 41.70 + (i // 1000 % 1000) * 0.0002 + rng.random() * 0.0001
        features.append({"attributes": attributes, "geometry": {"x": round(x, 6), "y": round(y, 6)}})
    document = {key: value for key, value in sample.items() if key != "features"}
    document["features"] = features
    with open(os.path.join(folder, "features", "0.json"), "w", encoding="utf-8") as f:
        json.dump(document, f, separators=(",", ":"))
    say(f"{folder}: {count} features")


def cmd_folders(out, n_query, n_version):
    rng = random.Random(4)
    os.makedirs(out, exist_ok=True)
    make_folder(out, "Bench100k", int(n_query), rng)
    make_folder(out, "Bench1k", int(n_version), rng)
    make_folder(out, "Bench1M", int(n_version), rng)


# --- grow -----------------------------------------------------------------------------------------------------

def layer_key(db, service, layer_id=0):
    row = db.execute("SELECT key FROM layer WHERE service = ? AND layerId = ?", (service, layer_id)).fetchone()
    if row is None:
        sys.exit(f"service_bench.py: no layer {layer_id} of {service} in the database")
    return row[0]


def cmd_grow(path, service, rows):
    rows = int(rows)
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA cache_size = -524288")
    db.execute("PRAGMA synchronous = OFF")
    key = layer_key(db, service)
    templates = db.execute(
        "SELECT r.objectId, r.branch, r.moment, r.isDelete, r.attributes, r.geometry, r.minX, r.minY, r.maxX, r.maxY "
        "FROM head h JOIN featureRow r ON r.id = h.rowId WHERE h.layerKey = ? AND h.branch = 0 AND h.isDelete = 0 ORDER BY h.objectId",
        (key,)).fetchall()
    if not templates:
        sys.exit(f"service_bench.py: layer 0 of {service} is empty; nothing to copy")
    start_id = max(t[0] for t in templates) + 1
    missing = rows - len(templates)
    if missing <= 0:
        say(f"{service} already holds {len(templates)} rows")
        return
    oid_pattern = re.compile(r'"objectid":\d+')
    gid_pattern = re.compile(r'"globalid":"\{[0-9A-F-]+\}"')
    begin = time.perf_counter()

    def new_rows():
        for n in range(missing):
            t = templates[n % len(templates)]
            object_id = start_id + n
            global_id = guid()
            attributes = oid_pattern.sub(f'"objectid":{object_id}', t[4], count=1)
            attributes = gid_pattern.sub(f'"globalid":"{global_id}"', attributes, count=1)
            yield (key, object_id, global_id, t[1], t[2], t[3], attributes, t[5], t[6], t[7], t[8], t[9])

    db.execute("BEGIN")
    db.executemany(
        "INSERT INTO featureRow (layerKey, objectId, globalId, branch, moment, isDelete, attributes, geometry, minX, minY, maxX, maxY) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", new_rows())
    db.execute(
        "INSERT INTO head (layerKey, branch, objectId, moment, isDelete, rowId) "
        "SELECT layerKey, branch, objectId, moment, isDelete, id FROM featureRow WHERE layerKey = ? AND objectId >= ?",
        (key, start_id))
    db.execute("UPDATE layer SET nextObjectId = ? WHERE key = ?", (start_id + missing, key))
    db.execute("COMMIT")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    count = db.execute("SELECT count(*) FROM head WHERE layerKey = ? AND branch = 0 AND isDelete = 0", (key,)).fetchone()[0]
    say(f"{service}: grew layer 0 to {count} rows in {time.perf_counter() - begin:.1f} s")
    if count != rows:
        sys.exit(f"service_bench.py: expected {rows} rows, found {count}")


# --- HTTP helpers ---------------------------------------------------------------------------------------------

class Client:
    def __init__(self, base):
        parsed = urllib.parse.urlsplit(base)
        self.host, self.port, self.prefix = parsed.hostname, parsed.port, parsed.path.rstrip("/")
        self.connection = http.client.HTTPConnection(self.host, self.port, timeout=60)

    def send(self, method, path, data=None):
        """The raw answer to a request whose body (a dict, or bytes already form-encoded) is `data`."""
        headers = {"Content-Type": "application/x-www-form-urlencoded"} if data is not None else {}
        if isinstance(data, dict):
            data = urllib.parse.urlencode(data).encode()
        self.connection.request(method, self.prefix + path, body=data, headers=headers)
        response = self.connection.getresponse()
        payload = response.read()
        if response.status != 200:
            sys.exit(f"service_bench.py: {method} {path}: HTTP {response.status}: {payload[:300]!r}")
        return payload

    @staticmethod
    def document(method, path, payload):
        document = json.loads(payload)
        if isinstance(document, dict) and "error" in document:
            sys.exit(f"service_bench.py: {method} {path}: {json.dumps(document['error'])[:400]}")
        return document

    def request(self, method, path, body=None):
        return self.document(method, path, self.send(method, path, body))


def page_offsets(n, pages):
    # Pages spread over the whole layer, the same sequence as the wrk script.
    return [(i * 7919) % (n - 100 + 1) for i in range(pages)]


def cmd_check(base, service, n):
    n = int(n)
    client = Client(base)
    count = client.request("GET", f"/rest/services/{service}/FeatureServer/0/query?where=1%3D1&returnCountOnly=true&f=json")["count"]
    if count != n:
        sys.exit(f"service_bench.py: {service} layer 0 holds {count} features, {n} expected")
    for offset in page_offsets(n, 40) + [0, n - 100]:
        page = client.request("GET", f"/rest/services/{service}/FeatureServer/0/query?resultOffset={offset}&resultRecordCount=100&f=json")
        ids = [f["attributes"]["objectid"] for f in page["features"]]
        if ids != list(range(offset + 1, offset + 101)) or any("geometry" not in f for f in page["features"]):
            sys.exit(f"service_bench.py: page at offset {offset} holds ids {ids[:3]}...{ids[-3:]}, expected {offset + 1}..{offset + 100}")
    say(f"{service}: {count} features; 42 pages checked (100 features each, the right object ids, geometry)")


def edit_bodies(total, batch, token, tag):
    rng = random.Random(7)
    bodies = []
    for b in range(total // batch):
        adds = []
        for i in range(batch):
            adds.append({"attributes": {"incidentid": f"BENCH-{tag}", "placename": f"Bench add {b}-{i}", "fulladdr": "1 Main St, Naperville, IL 60540",
                                        "typdamage": "Minor", "primcause": "Wind", "inspdate": 1721499180000, "numstories": 2,
                                        "estloss": float(rng.randrange(1000, 500000)), "notes": "Added by service-throughput.sh."},
                         "geometry": {"x": round(-88.2 + rng.random() * 0.1, 6), "y": round(41.7 + rng.random() * 0.1, 6),
                                      "spatialReference": {"wkid": 4326}}})
        bodies.append({"adds": json.dumps(adds, separators=(",", ":")), "rollbackOnFailure": "true", "f": "json", "token": token})
    return bodies


def cmd_edits(base, service, token, total, batch):
    total, batch = int(total), int(batch)
    client = Client(base)
    path = f"/rest/services/{service}/FeatureServer/0/applyEdits"
    # Bodies are form-encoded before the clock starts, and answers checked after it stops: the figure is the
    # server's time (and the loopback's), not this client's.
    bodies = [urllib.parse.urlencode(body).encode() for body in edit_bodies(total, batch, token, "HTTP")]
    before = client.request("GET", f"/rest/services/{service}/FeatureServer/0/query?where=1%3D1&returnCountOnly=true&f=json")["count"]
    start = time.perf_counter()
    payloads = [client.send("POST", path, body) for body in bodies]
    elapsed = time.perf_counter() - start
    added = 0
    for payload in payloads:
        answer = client.document("POST", path, payload)
        results = answer.get("addResults", [])
        if len(results) != batch or not all(r.get("success") for r in results):
            sys.exit(f"service_bench.py: applyEdits answered {json.dumps(answer)[:400]}")
        added += len(results)
    after = client.request("GET", f"/rest/services/{service}/FeatureServer/0/query?where=1%3D1&returnCountOnly=true&f=json")["count"]
    if after - before != total:
        sys.exit(f"service_bench.py: the layer grew by {after - before} features, {total} expected")
    say(f"(b) {added} adds in {len(bodies)} requests: {elapsed:.3f} s; the layer grew from {before} to {after}")
    print(f"{elapsed:.6f} {added}")


def cmd_versions(small_base, small_token, small, large_base, large_token, large, runs):
    runs = int(runs)
    clients = {small: (Client(small_base), small_token), large: (Client(large_base), large_token)}
    times = {small: [], large: []}
    stamp = int(time.time())

    def create(service, name):
        client, token = clients[service]
        start = time.perf_counter()
        answer = client.request("POST", f"/rest/services/{service}/VersionManagementServer/create",
                                {"versionName": name, "accessPermission": "private", "f": "json", "token": token})
        elapsed = time.perf_counter() - start
        if not answer.get("success") or "versionInfo" not in answer:
            sys.exit(f"service_bench.py: create answered {json.dumps(answer)[:300]}")
        return elapsed

    for service in (small, large):  # a few untimed creates each, so that neither pays a first-use cost
        for w in range(3):
            create(service, f"warm{stamp}w{w}")
    for i in range(runs):
        for service in ((small, large) if i % 2 == 0 else (large, small)):
            times[service].append(create(service, f"b{stamp}r{i}"))
    small_ms = statistics.median(times[small]) * 1000
    large_ms = statistics.median(times[large]) * 1000
    say(f"(c) create version, median of {runs}: {small} {small_ms:.3f} ms, {large} {large_ms:.3f} ms")
    print(f"{small_ms:.4f} {large_ms:.4f}")


# --- raw SQLite -----------------------------------------------------------------------------------------------

def cmd_raw_query(path, service, n, pages):
    n, pages = int(n), int(pages)
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    db.execute("PRAGMA cache_size = -32768")  # as the service sets it
    key = layer_key(db, service)
    # The SELECTs the service runs for an unfiltered page of DEFAULT in object id order (Query.swift). From offset
    # 2,000 on, the service starts at the object id it knows to be at that offset (PageAnchors, a sorted list of
    # the live ids read once) and joins each head entry to its row in index order; so it does from offset 0. In
    # between, the page's row ids from the head index walked with OFFSET, then those rows. So does this.
    columns = "SELECT r.attributes, r.geometry, r.minX, r.minY, r.maxX, r.maxY "
    walk = columns + ("FROM featureRow r WHERE r.id IN (SELECT h.rowId FROM head h WHERE h.layerKey = ? AND h.branch = 0 "
                      "AND h.isDelete = 0 ORDER BY h.objectId LIMIT 101 OFFSET ?) ORDER BY r.objectId")
    joined = columns + ("FROM head h JOIN featureRow r ON r.id = h.rowId WHERE h.layerKey = ? AND h.branch = 0 AND h.isDelete = 0 "
                        "AND h.objectId >= ? ORDER BY h.objectId LIMIT 101")
    ids = [row[0] for row in db.execute("SELECT objectId FROM head WHERE layerKey = ? AND branch = 0 AND isDelete = 0 ORDER BY objectId", (key,))]

    def page(offset):
        if offset >= 2000 or offset == 0:
            return db.execute(joined, (key, ids[offset] if offset < len(ids) else 2**63 - 1)).fetchall()
        return db.execute(walk, (key, offset)).fetchall()

    offsets = page_offsets(n, pages)
    for offset in offsets[:50]:
        page(offset)
    latencies = []
    start = time.perf_counter()
    for offset in offsets:
        t = time.perf_counter()
        rows = page(offset)
        latencies.append(time.perf_counter() - t)
        if len(rows) != 101 and offset + 101 <= n:
            sys.exit(f"service_bench.py: raw page at {offset} returned {len(rows)} rows")
    elapsed = time.perf_counter() - start
    latencies.sort()
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
    print(f"{pages / elapsed:.1f} {p99 * 1000:.3f}")


def cmd_raw_edits(path, service, total, batch):
    total, batch = int(total), int(batch)
    db = sqlite3.connect(path, isolation_level=None)
    # The service's settings (GRDB in WAL mode: synchronous NORMAL; the service's page cache size).
    db.execute("PRAGMA synchronous = NORMAL")
    db.execute("PRAGMA cache_size = -32768")
    key = layer_key(db, service)
    # The rows (b) wrote through the service, inserted again (new object ids and global ids, same attributes and
    # geometry) the way the service writes them: featureRow, then the head entry, BATCH rows per transaction.
    rows = db.execute("SELECT attributes, geometry, minX, minY, maxX, maxY FROM featureRow WHERE layerKey = ? AND branch = 0 "
                      "ORDER BY id DESC LIMIT ?", (key, total)).fetchall()
    rows.reverse()
    next_id = max(db.execute("SELECT nextObjectId FROM layer WHERE key = ?", (key,)).fetchone()[0],
                  db.execute("SELECT max(objectId) FROM head WHERE layerKey = ?", (key,)).fetchone()[0] + 1) + 1_000_000
    moment = int(time.time() * 1000) + 10_000_000
    start = time.perf_counter()
    for b in range(0, len(rows), batch):
        db.execute("BEGIN IMMEDIATE")
        moment += 1
        for attributes, geometry, minX, minY, maxX, maxY in rows[b:b + batch]:
            cursor = db.execute(
                "INSERT INTO featureRow (layerKey, objectId, globalId, branch, moment, isDelete, attributes, geometry, minX, minY, maxX, maxY) "
                "VALUES (?, ?, ?, 0, ?, 0, ?, ?, ?, ?, ?, ?)", (key, next_id, guid(), moment, attributes, geometry, minX, minY, maxX, maxY))
            db.execute("INSERT INTO head (layerKey, branch, objectId, moment, isDelete, rowId) VALUES (?, 0, ?, ?, 0, ?) "
                       "ON CONFLICT DO UPDATE SET moment = excluded.moment, isDelete = excluded.isDelete, rowId = excluded.rowId",
                       (key, next_id, moment, cursor.lastrowid))
            next_id += 1
        db.execute("COMMIT")
    elapsed = time.perf_counter() - start
    print(f"{elapsed:.6f} {len(rows)}")


def cmd_raw_version(small_path, large_path, runs):
    runs = int(runs)
    result = []
    for path in (small_path, large_path):
        db = sqlite3.connect(path, isolation_level=None)
        db.execute("PRAGMA synchronous = NORMAL")  # as GRDB sets it in WAL mode
        service = db.execute("SELECT name FROM service ORDER BY name").fetchone()[0]
        times = []
        for i in range(runs):
            start = time.perf_counter()
            db.execute("BEGIN IMMEDIATE")
            branch = (db.execute("SELECT max(branch) FROM version").fetchone()[0] or 0) + 1
            db.execute("INSERT INTO version (service, branch, guid, owner, name, qualifiedName, access, description, ancestorMoment, baseMoment, "
                       "createdDate, modifiedDate) VALUES (?, ?, ?, 'bench', ?, ?, 'private', '', 0, 0, 0, 0)",
                       (service, branch, guid(), f"raw{branch}", f"bench.raw{branch}"))
            db.execute("COMMIT")
            times.append(time.perf_counter() - start)
        result.append(statistics.median(times) * 1000)
    print(f"{result[0]:.4f} {result[1]:.4f}")


# --- PostgreSQL -----------------------------------------------------------------------------------------------

def pg_tool(name):
    """psql or pgbench: from PATH, else the newest /usr/lib/postgresql/*/bin (Debian puts pgbench only there)."""
    found = shutil.which(name)
    if found:
        return found
    candidates = []
    if os.path.isdir("/usr/lib/postgresql"):
        for version in os.listdir("/usr/lib/postgresql"):
            path = os.path.join("/usr/lib/postgresql", version, "bin", name)
            if os.access(path, os.X_OK):
                candidates.append((int(version) if version.isdigit() else 0, path))
    if not candidates:
        sys.exit(f"service_bench.py: {name} not found (PATH, /usr/lib/postgresql/*/bin); install PostgreSQL's client programs")
    return max(candidates)[1]


def pg_url(url, database):
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("postgres", "postgresql"):
        sys.exit(f"service_bench.py: '{url}' is not a postgres:// URL")
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc, "/" + database, parts.query, ""))


def psql(url, sql=None, file=None):
    """Runs SQL (text, or a file) with psql, stops at the first error; answers its unaligned output."""
    command = [pg_tool("psql"), "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", url]
    command += ["-f", file] if file else ["-c", sql]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"service_bench.py: psql failed: {result.stderr.strip()[:2000]}")
    return result.stdout


def pg_layer_key(url, service, layer_id=0):
    key = psql(url, f"SELECT key FROM layer WHERE service = '{service}' AND layerId = {layer_id}").strip()
    if not key:
        sys.exit(f"service_bench.py: no layer {layer_id} of {service} in {url}")
    return int(key)


def cmd_pg_url(url, database):
    print(pg_url(url, database))


def cmd_pg_grow(url, service, rows):
    rows = int(rows)
    key = pg_layer_key(url, service)
    count, top = (int(v) for v in psql(url, f"SELECT count(*), coalesce(max(objectId), 0) FROM head WHERE layerKey = {key} "
                                            "AND branch = 0 AND isDelete = 0").strip().split("|"))
    if count == 0:
        sys.exit(f"service_bench.py: layer 0 of {service} is empty; nothing to copy")
    missing = rows - count
    if missing <= 0:
        say(f"{service} already holds {count} rows")
        return
    start_id = top + 1
    begin = time.perf_counter()
    # The same rows as `grow` writes in SQLite: the live rows of DEFAULT copied in object id order (so the new
    # rows' ids follow their object ids, as the row-by-row inserts of SQLite's grow make them), each with a new
    # object id and global id, in its column and in its attribute text; a head entry for each; the layer's
    # object id counter after them. One transaction.
    psql(url, f"""
        BEGIN;
        CREATE TEMP TABLE template ON COMMIT DROP AS
            SELECT (row_number() OVER (ORDER BY h.objectId) - 1) AS n, r.branch, r.moment, r.isDelete, r.attributes, r.geometry,
                   r.minX, r.minY, r.maxX, r.maxY
            FROM head h JOIN featureRow r ON r.id = h.rowId WHERE h.layerKey = {key} AND h.branch = 0 AND h.isDelete = 0;
        INSERT INTO featureRow (layerKey, objectId, globalId, branch, moment, isDelete, attributes, geometry, minX, minY, maxX, maxY)
            SELECT {key}, g.objectId, g.globalId, t.branch, t.moment, t.isDelete,
                   regexp_replace(regexp_replace(t.attributes, '"objectid":\\d+', '"objectid":' || g.objectId),
                                  '"globalid":"\\{{[0-9A-F-]+\\}}"', '"globalid":"' || g.globalId || '"'),
                   t.geometry, t.minX, t.minY, t.maxX, t.maxY
            FROM (SELECT s AS n, {start_id} + s AS objectId, '{{' || upper(gen_random_uuid()::text) || '}}' AS globalId
                  FROM generate_series(0, {missing - 1}) s) g
            JOIN template t ON t.n = g.n % {count}
            ORDER BY g.objectId;
        INSERT INTO head (layerKey, branch, objectId, moment, isDelete, rowId)
            SELECT layerKey, branch, objectId, moment, isDelete, id FROM featureRow WHERE layerKey = {key} AND objectId >= {start_id};
        UPDATE layer SET nextObjectId = {start_id + missing} WHERE key = {key};
        COMMIT;
        """)
    grown = time.perf_counter() - begin
    psql(url, "VACUUM (ANALYZE)")
    count = int(psql(url, f"SELECT count(*) FROM head WHERE layerKey = {key} AND branch = 0 AND isDelete = 0").strip())
    sample = psql(url, f"SELECT r.objectId, r.globalId, r.attributes FROM head h JOIN featureRow r ON r.id = h.rowId "
                       f"WHERE h.layerKey = {key} AND h.branch = 0 AND h.objectId = {start_id + missing - 1}").strip().split("|", 2)
    if f'"objectid":{sample[0]},' not in sample[2] and f'"objectid":{sample[0]}}}' not in sample[2] or f'"globalid":"{sample[1]}"' not in sample[2]:
        sys.exit(f"service_bench.py: the last grown row's attributes do not carry its ids: {sample}")
    say(f"{service}: grew layer 0 to {count} rows in {grown:.1f} s (then VACUUM ANALYZE, {time.perf_counter() - begin - grown:.1f} s)")
    if count != rows:
        sys.exit(f"service_bench.py: expected {rows} rows, found {count}")


def pgbench(url, script, transactions, workdir):
    """Runs a pgbench script file with one client, prepared statements; answers (transactions/s, latencies in s)."""
    result = subprocess.run([pg_tool("pgbench"), "-n", "-M", "prepared", "-c", "1", "-t", str(transactions), "-f", script,
                             "--log", "--log-prefix", os.path.join(workdir, "pgbench"), url],
                            capture_output=True, text=True, cwd=workdir)
    if result.returncode != 0:
        sys.exit(f"service_bench.py: pgbench failed: {(result.stderr + result.stdout).strip()[-2000:]}")
    match = re.search(r"tps = ([0-9.]+) \(without initial connection time\)", result.stdout)
    if not match:
        sys.exit(f"service_bench.py: no tps line in pgbench's output: {result.stdout[-1000:]}")
    latencies = []
    for name in os.listdir(workdir):
        if name.startswith("pgbench."):
            with open(os.path.join(workdir, name)) as f:
                latencies += [int(line.split()[2]) / 1e6 for line in f if line.strip()]
            os.remove(os.path.join(workdir, name))
    if len(latencies) != transactions:
        sys.exit(f"service_bench.py: pgbench logged {len(latencies)} transactions, {transactions} expected")
    return float(match.group(1)), latencies


def cmd_pg_raw_query(url, service, n, pages):
    n, pages = int(n), int(pages)
    key = pg_layer_key(url, service)
    count, low, high = (int(v) for v in psql(url, f"SELECT count(*), min(objectId), max(objectId) FROM head WHERE layerKey = {key} "
                                                 "AND branch = 0 AND isDelete = 0").strip().split("|"))
    # The object id at an offset is low + offset when the live ids are consecutive (as loaded): the anchor
    # PageAnchors finds in its list.
    if count < n or high - low + 1 != count:
        sys.exit(f"service_bench.py: {service}: {count} live ids from {low} to {high}; {n} consecutive ids expected")
    columns = "SELECT r.attributes, r.geometry, r.minX, r.minY, r.maxX, r.maxY "
    head = f"h.layerKey = {key} AND h.branch = 0 AND h.isDelete = 0"
    # The SELECTs of Query.swift for an unfiltered page of DEFAULT (as raw-query), at offsets drawn at random
    # over the layer (pgbench has no request counter for the wrk script's sequence).
    script = f"""\\set offset random(0, {n - 100})
\\set anchor {low} + :offset
\\if :offset >= 2000
{columns}FROM head h JOIN featureRow r ON r.id = h.rowId WHERE {head} AND h.objectId >= :anchor ORDER BY h.objectId LIMIT 101;
\\elif :offset = 0
{columns}FROM head h JOIN featureRow r ON r.id = h.rowId WHERE {head} ORDER BY h.objectId LIMIT 101;
\\else
{columns}FROM featureRow r WHERE r.id IN (SELECT h.rowId FROM head h WHERE {head} ORDER BY h.objectId LIMIT 101 OFFSET :offset) ORDER BY r.objectId;
\\endif
"""
    with tempfile.TemporaryDirectory() as workdir:
        path = os.path.join(workdir, "query.sql")
        with open(path, "w") as f:
            f.write(script)
        pgbench(url, path, 50, workdir)  # warm-up
        tps, latencies = pgbench(url, path, pages, workdir)
    latencies.sort()
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
    print(f"{tps:.1f} {p99 * 1000:.3f}")


def pg_literal(value):
    if value is None:
        return "NULL"
    if isinstance(value, (int, float)):
        return repr(value)
    return "'" + str(value).replace("'", "''") + "'"


def cmd_pg_raw_edits(url, service, total, batch):
    total, batch = int(total), int(batch)
    key = pg_layer_key(url, service)
    # The rows (b) wrote through the service, inserted again (new object ids and global ids) the way RowStore
    # writes them: the featureRow insert (RETURNING id), then the head upsert; BATCH rows per transaction.
    # psql sends each statement and waits for its answer, as the service does.
    out = psql(url, f"COPY (SELECT attributes, geometry, minX, minY, maxX, maxY FROM featureRow WHERE layerKey = {key} AND branch = 0 "
                    f"ORDER BY id DESC LIMIT {total}) TO STDOUT WITH (FORMAT csv)")
    import csv, io
    rows = list(csv.reader(io.StringIO(out)))
    rows.reverse()
    if len(rows) != total:
        sys.exit(f"service_bench.py: {len(rows)} rows to copy, {total} expected")
    next_id = int(psql(url, f"SELECT greatest((SELECT nextObjectId FROM layer WHERE key = {key}), "
                            f"(SELECT max(objectId) + 1 FROM head WHERE layerKey = {key}))").strip()) + 1_000_000
    moment = int(time.time() * 1000) + 10_000_000
    number = lambda text: "NULL" if text == "" else repr(float(text))
    lines = ["SELECT extract(epoch FROM clock_timestamp());"]
    for b in range(0, len(rows), batch):
        moment += 1
        lines.append("BEGIN;")
        for attributes, geometry, minX, minY, maxX, maxY in rows[b:b + batch]:
            lines.append(
                "INSERT INTO featureRow (layerKey, objectId, globalId, branch, moment, isDelete, attributes, geometry, minX, minY, maxX, maxY) "
                f"VALUES ({key}, {next_id}, {pg_literal(guid())}, 0, {moment}, 0, {pg_literal(attributes)}, "
                f"{pg_literal(geometry) if geometry else 'NULL'}, {number(minX)}, {number(minY)}, {number(maxX)}, {number(maxY)}) "
                "ON CONFLICT (layerKey, branch, objectId, moment) DO UPDATE SET globalId = excluded.globalId RETURNING id \\gset")
            lines.append(f"INSERT INTO head (layerKey, branch, objectId, moment, isDelete, rowId) VALUES ({key}, 0, {next_id}, {moment}, 0, :id) "
                         "ON CONFLICT (layerKey, branch, objectId) DO UPDATE SET moment = excluded.moment, isDelete = excluded.isDelete, rowId = excluded.rowId;")
            next_id += 1
        lines.append("COMMIT;")
    lines.append("SELECT extract(epoch FROM clock_timestamp());")
    with tempfile.TemporaryDirectory() as workdir:
        path = os.path.join(workdir, "edits.sql")
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        stamps = [float(v) for v in psql(url, file=path).split()]
    print(f"{stamps[-1] - stamps[0]:.6f} {len(rows)}")


def cmd_pg_raw_version(small_url, large_url, runs):
    runs = int(runs)
    urls = (small_url, large_url)
    times = {url: [] for url in urls}
    with tempfile.TemporaryDirectory() as workdir:
        scripts = {}
        for url in urls:
            service = psql(url, "SELECT name FROM service ORDER BY name LIMIT 1").strip()
            tag = uuid.uuid4().hex[:8]
            scripts[url] = os.path.join(workdir, f"version-{len(scripts)}.sql")
            with open(scripts[url], "w") as f:
                f.write(f"""BEGIN;
SELECT coalesce(max(branch), 0) + 1 AS branch FROM version \\gset
INSERT INTO version (service, branch, guid, owner, name, qualifiedName, access, description, ancestorMoment, baseMoment, createdDate, modifiedDate) VALUES ('{service}', :branch, '{tag}-' || :branch, 'bench', 'raw{tag}' || :branch, 'bench.raw{tag}' || :branch, 'private', '', 0, 0, 0, 0);
COMMIT;
""")
            pgbench(url, scripts[url], 3, workdir)  # warm-up, untimed
        # In turns, a quarter of the runs at a time, as `versions` alternates its two servers.
        done = 0
        while done < runs:
            chunk = min(max(1, runs // 4), runs - done)
            for url in (urls if (done // max(1, runs // 4)) % 2 == 0 else urls[::-1]):
                times[url] += pgbench(url, scripts[url], chunk, workdir)[1]
            done += chunk
    print(f"{statistics.median(times[small_url]) * 1000:.4f} {statistics.median(times[large_url]) * 1000:.4f}")

# --- pages: plain, ordered and GeoJSON pages side by side ---------------------------------------------------------

def process_threads_cpu(pid):
    """Each thread's CPU time so far, user and system, in nanoseconds: {thread id: /proc/PID/task/TID/schedstat's first
    field}. Clock ticks (/proc/PID/stat) are 10 ms, too coarse for blocks of a few hundred short requests."""
    times = {}
    for path in glob.glob(f"/proc/{pid}/task/*/schedstat"):
        try:
            with open(path) as f:
                times[path] = int(f.read().split()[0])
        except (OSError, ValueError, IndexError):
            pass  # the thread ended meanwhile
    return times


def process_cpu_between(before, after):
    """Seconds of CPU the process spent between two `process_threads_cpu` readings, every thread's: a thread's change,
    or all of a thread's time if it began meanwhile. A thread that ended meanwhile takes its time since `before` with it
    (the server's working threads, its event loops and the log writer, live as long as it does)."""
    return sum(ns - before.get(tid, 0) for tid, ns in after.items()) / 1e9


def cmd_pages(base, service, n, pid, size, requests):
    """Each case a page of `size` at offsets 0, n/2 and n - 100: `requests` requests one after another on one
    connection (after 20 untimed; at most 10 s of them), checked; prints one line a case and offset:
    `PAGE case offset median_ms cpu_ms requests`. cpu_ms is the server's CPU per request (all its threads, from
    /proc/PID/task/*/schedstat, `process_cpu_between`): measured over blocks of 250 requests, the median of the blocks' figures (a block
    the machine's other work disturbed does not move it)."""
    n, size, requests = int(n), int(size), int(requests)
    client = Client(base)
    path = f"/rest/services/{service}/FeatureServer/0/query"
    cases = [
        ("plain", "f=json", False),
        ("ordered-asc", "orderByFields=OBJECTID&f=json", False),
        ("ordered-desc", "orderByFields=OBJECTID%20DESC&f=json", True),
        ("geojson", "f=geojson", False),
        ("geojson-ordered", "orderByFields=OBJECTID&f=geojson", False),
    ]
    block = 250
    for offset in (0, n // 2, n - 100):
        for name, query, descending in cases:
            url = f"{path}?resultOffset={offset}&resultRecordCount={size}&{query}"
            page = client.document("GET", url, client.send("GET", url))
            key = "id" if "geojson" in query else None
            ids = [f["id"] if key else f["attributes"]["objectid"] for f in page["features"]]
            first = n - offset if descending else offset + 1
            expected = list(range(first, first - size, -1)) if descending else list(range(first, first + size))
            if ids != expected:
                sys.exit(f"service_bench.py: {name} at offset {offset} holds ids {ids[:3]}...{ids[-3:]}, expected {expected[:3]}...")
            for _ in range(20):
                client.send("GET", url)
            times, blocks = [], []
            cpu_before, in_block = process_threads_cpu(pid), 0
            began = time.perf_counter()
            # At most `requests`, and no more than 10 s of them (a slow case still measures at least 10).
            while len(times) < requests and (len(times) < 10 or time.perf_counter() - began < 10):
                start = time.perf_counter()
                client.send("GET", url)
                times.append(time.perf_counter() - start)
                in_block += 1
                if in_block == block:
                    cpu_after = process_threads_cpu(pid)
                    blocks.append(process_cpu_between(cpu_before, cpu_after) / in_block)
                    cpu_before, in_block = cpu_after, 0
            if in_block and not blocks:
                blocks.append(process_cpu_between(cpu_before, process_threads_cpu(pid)) / in_block)
            print(f"PAGE {name} {offset} {statistics.median(times) * 1000:.3f} {statistics.median(blocks) * 1000:.3f} {len(times)}")


def main(argv):
    commands = {
        "folders": cmd_folders, "grow": cmd_grow, "check": cmd_check, "edits": cmd_edits, "versions": cmd_versions,
        "raw-query": cmd_raw_query, "raw-edits": cmd_raw_edits, "raw-version": cmd_raw_version,
        "pg-url": cmd_pg_url, "pg-grow": cmd_pg_grow, "pg-raw-query": cmd_pg_raw_query, "pg-raw-edits": cmd_pg_raw_edits,
        "pg-raw-version": cmd_pg_raw_version, "pages": cmd_pages,
    }
    if len(argv) < 2 or argv[1] not in commands:
        sys.exit(__doc__)
    commands[argv[1]](*argv[2:])


if __name__ == "__main__":
    main(sys.argv)
