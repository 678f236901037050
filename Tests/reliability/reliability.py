"""Reliability checks of a real `maprules serve` over HTTP on loopback (standard library only).

Usage:
    python3 Tests/reliability/reliability.py --bin .build/debug/maprules [--size ci|full] [options]

Scenarios, each against its own server started with `--port 0` (the port is read from the
`  port: N` line the server prints) on a fresh database file under --work:

1. crash: TreesOfPortland layer 0 receives applyEdits batches of --batch-size adds, every feature of a
   batch tagged with the batch id in `Notes`, sent back to back by one client thread, while the
   server is killed with SIGKILL at a random moment (uniform over about two batch durations, so
   the kill lands while a batch is being sent, written or answered). The server is restarted on the
   same database file and every batch ever sent must be entirely present or entirely absent (counted
   with a `where` query); every acknowledged batch must be present; the layer's count must be the
   sample's plus the present batches; object ids must be unique. --kills rounds (20).

2. crews: --crews (8) clients, each signed in as its own user (a users file written for the run,
   crew01..crew08), each create a branch version of DamageAssessment, start reading and editing it,
   apply edits with gdbVersion + sessionID (adds; updates and deletes of its own adds; an update of a
   sample feature it alone edits; updates of sample features shared with its neighbours, each edited by
   exactly two crews, in the same field or in different fields), then reconcile + post, retrying
   when DEFAULT moved in between (bounded). Checked in DEFAULT afterwards: every non-conflicting edit
   of every crew is there, a field both crews changed holds the value of the crew that posted last,
   different fields merge by attribute and follow the last poster's row by object, the later poster's
   reconcile reported each conflict, and no other conflict was reported. --crew-rounds rounds (each
   with new versions; odd rounds byObject, even rounds byAttribute). Then --crew-kills rounds in which
   the server is killed while the crews work: after the restart every version shows exactly its crew's
   answered edits, and DEFAULT the same once every version is reconciled and posted.

Also: kill -9 during the first start (sample load), kill -9 during posts of a version, and SIGTERM
during batches (graceful stop), see the functions of the same names.

Every request has a timeout, every loop a bound in count, and the whole run a deadline (--deadline
seconds). Prints `PASS name` / `FAIL name: why` per check and `N passed, N failed` last; exits 1 on
any failure.
"""
import argparse
import http.client
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.parse
import uuid

HOST = "127.0.0.1"
# The hash of the sample password "sample-editor01" (Samples/users.json), reused for the crew users.
SAMPLE_EDITOR_HASH = "$2b$10$oRdsAb8Hnw/4wTPZSVyDaurEytwoa3ebCPHYlfLU7vnIiKUTbEU8."
SAMPLE_EDITOR_PASSWORD = "sample-editor01"

passed = 0
failed = 0
START = time.monotonic()


def log(message):
    print(f"[{time.monotonic() - START:7.1f}s] {message}", flush=True)


def check(name, ok, why=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"PASS {name}", flush=True)
    else:
        failed += 1
        print(f"FAIL {name}: {why}"[:2000], flush=True)
    return ok


class Deadline(Exception):
    pass


class ServiceFailure(Exception):
    """An ArcGIS error answer, or an unexpected one."""


# --- HTTP ---------------------------------------------------------------------------------------------

def request(port, path, params, timeout=60.0, method="POST"):
    """Sends a form-encoded request and answers the decoded JSON body."""
    body = urllib.parse.urlencode(params)
    connection = http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
        if method == "POST":
            connection.request("POST", path, body=body, headers={"Content-Type": "application/x-www-form-urlencoded"})
        else:
            connection.request("GET", f"{path}?{body}")
        response = connection.getresponse()
        data = response.read()
        if response.status != 200:
            raise ServiceFailure(f"HTTP {response.status} on {path}: {data[:300]!r}")
        return json.loads(data)
    finally:
        connection.close()


def sign_in(port, username, password):
    answer = request(port, "/arcgis/sharing/rest/generateToken",
                     {"username": username, "password": password, "client": "requestip", "expiration": 120, "f": "json"})
    if "token" not in answer:
        raise ServiceFailure(f"generateToken for {username}: {answer}")
    return answer["token"]


def query(port, service, layer, **params):
    params.setdefault("f", "json")
    answer = request(port, f"/arcgis/rest/services/{service}/FeatureServer/{layer}/query", params, method="GET")
    if "error" in answer:
        raise ServiceFailure(f"query {params}: {answer['error']}")
    return answer


def count(port, service, layer, where, **params):
    return query(port, service, layer, where=where, returnCountOnly="true", **params)["count"]


def paged_ids(port, service, layer, oid_field, page=1000, limit=1000, **params):
    """Every object id, read page by page with resultOffset/resultRecordCount (at most `limit` pages)."""
    ids = []
    for number in range(limit):
        answer = query(port, service, layer, where="1=1", outFields=oid_field, returnGeometry="false",
                       resultOffset=number * page, resultRecordCount=page, **params)
        features = answer["features"]
        ids.extend(f["attributes"][oid_field] for f in features)
        if not answer.get("exceededTransferLimit"):
            return ids
    raise ServiceFailure(f"paging {service}/{layer}: still more after {limit} pages")


# --- the server -------------------------------------------------------------------------------------

class Server:
    """One `maprules serve --port 0` process; its output goes to files under the log folder."""

    def __init__(self, binary, database, logs, name, users=None):
        self.binary, self.database, self.logs, self.name, self.users = binary, database, logs, name, users
        self.process = None
        self.port = None
        self.starts = 0

    def start(self, timeout=180.0):
        self.starts += 1
        self.port = None
        out_path = os.path.join(self.logs, f"{self.name}-{self.starts}.out")
        err_path = os.path.join(self.logs, f"{self.name}-{self.starts}.err")
        command = [self.binary, "serve", "--port", "0", "--database", self.database]
        if self.users:
            command += ["--users", self.users]
        with open(out_path, "w") as out, open(err_path, "w") as err:
            self.process = subprocess.Popen(command, stdout=out, stderr=err, stdin=subprocess.DEVNULL)
        began = time.monotonic()
        while time.monotonic() - began < timeout:
            with open(out_path) as out:
                for line in out:
                    if line.startswith("  port: "):
                        self.port = int(line.split(":", 1)[1])
                        break
            if self.port is not None:
                return time.monotonic() - began
            if self.process.poll() is not None:
                raise ServiceFailure(f"maprules serve exited with {self.process.returncode} at start (see {err_path})")
            time.sleep(0.05)
        self.kill()
        raise ServiceFailure(f"maprules serve printed no port within {timeout:.0f} s (see {out_path})")

    def kill(self):
        """SIGKILL, as a crash: no shutdown code runs."""
        if self.process and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=30)
        self.port = None

    def stop(self):
        """SIGINT: the server finishes in-flight requests and exits."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()
        self.port = None

    def alive(self):
        return self.process is not None and self.process.poll() is None


# --- 1. crash safety --------------------------------------------------------------------------------

TREES = "TreesOfPortland"


def batch_features(batch_id, size, rng):
    return [{
        "attributes": {"Address": f"{i} Reliability St", "Site_Type": rng.choice(["TL", "SC", "MD", "YD", "PK", "OT"]),
                       "Condition": rng.choice(["Good", "Fair", "Poor", "Dead"]), "DBH": round(rng.uniform(1, 60), 1),
                       "Notes": batch_id},
        "geometry": {"x": -122.7 + rng.random() * 0.2, "y": 45.45 + rng.random() * 0.15, "spatialReference": {"wkid": 4326}},
    } for i in range(size)]


class BatchSender(threading.Thread):
    """Sends batches back to back until told to stop or the server goes away."""

    def __init__(self, port, token, round_number, size, rng, limit):
        super().__init__(daemon=True)
        self.port, self.token, self.round, self.size = port, token, round_number, size
        # The bodies are made before the first is sent, so that batches follow each other with no gap.
        self.bodies = []
        for k in range(limit):
            batch_id = f"crash-r{round_number:02d}-b{k:02d}"
            self.bodies.append((batch_id, {"adds": json.dumps(batch_features(batch_id, size, rng)), "rollbackOnFailure": "true",
                                           "token": token, "f": "json"}))
        self.sent = []          # batch ids whose request was started
        self.acknowledged = []  # batch ids answered with every add a success
        self.refused = []       # (batch id, answer) answered but not all successes
        self.durations = []
        self.stop_flag = threading.Event()
        self.error = None

    def run(self):
        for batch_id, body in self.bodies:
            if self.stop_flag.is_set():
                return
            self.sent.append(batch_id)
            began = time.monotonic()
            try:
                answer = request(self.port, f"/arcgis/rest/services/{TREES}/FeatureServer/0/applyEdits", body, timeout=120)
            except Exception as error:  # noqa: BLE001 - the server was killed under this request
                self.error = error
                return
            self.durations.append(time.monotonic() - began)
            results = answer.get("addResults", [])
            if len(results) == self.size and all(r.get("success") for r in results):
                self.acknowledged.append(batch_id)
            else:
                self.refused.append((batch_id, json.dumps(answer)[:300]))


def crash_safety(args, logs, deadline):
    log(f"crash safety: {args.kills} kills, batches of {args.batch_size} adds")
    database = fresh_database(args, "crash.sqlite")
    rng = random.Random(args.seed)
    server = Server(args.bin, database, logs, "crash")
    try:
        took = server.start()
        log(f"server up on port {server.port} in {took:.1f} s (first start: samples loaded)")
        base = count(server.port, TREES, 0, "1=1")
        token = sign_in(server.port, "editor01", "sample-editor01")

        # One acknowledged batch first: it measures how long a batch takes.
        warmup = BatchSender(server.port, token, 0, args.batch_size, rng, 1)
        warmup.start()
        warmup.join(timeout=300)
        if not warmup.acknowledged:
            check("a first batch is acknowledged", False, f"error {warmup.error}, refused {warmup.refused}")
            return
        batch_seconds = warmup.durations[0]
        log(f"a batch of {args.batch_size} adds took {batch_seconds:.2f} s")
        sent = list(warmup.sent)
        acknowledged = set(warmup.acknowledged)
        refused = list(warmup.refused)
        in_flight_at_kill = []
        restarts = []
        partial = []
        lost = []

        for round_number in range(1, args.kills + 1):
            if time.monotonic() > deadline:
                raise Deadline(f"crash safety stopped after {round_number - 1} of {args.kills} kills")
            if not server.alive():
                restarts.append(server.start())
                token = sign_in(server.port, "editor01", "sample-editor01")
            sender = BatchSender(server.port, token, round_number, args.batch_size, rng, limit=10)
            # A random moment within about two batches: the kill lands while the first or second batch
            # is being uploaded, written, committed or answered.
            delay = rng.uniform(0.0, 2.0 * batch_seconds)
            sender.start()
            time.sleep(delay)
            server.kill()
            sender.stop_flag.set()
            sender.join(timeout=150)
            if sender.is_alive():
                check(f"round {round_number}: the sender ends after the kill", False, "still blocked after 150 s")
                return
            unanswered = [b for b in sender.sent if b not in sender.acknowledged and b not in dict(sender.refused)]
            in_flight_at_kill.extend(unanswered)
            sent.extend(sender.sent)
            acknowledged.update(sender.acknowledged)
            refused.extend(sender.refused)

            restarts.append(server.start())
            token = sign_in(server.port, "editor01", "sample-editor01")
            # This round's batches: all or nothing, acknowledged ones present.
            for batch_id in sender.sent:
                n = count(server.port, TREES, 0, f"Notes = '{batch_id}'")
                if n not in (0, args.batch_size):
                    partial.append(f"{batch_id}: {n} of {args.batch_size}")
                if batch_id in acknowledged and n != args.batch_size:
                    lost.append(f"{batch_id} (acknowledged): {n} of {args.batch_size}")
            log(f"kill {round_number:2d} at {delay:5.2f} s: batches sent {len(sender.sent)}, acknowledged "
                f"{len(sender.acknowledged)}, in flight {len(unanswered)}; restart {restarts[-1]:.1f} s")

        # Everything once more, after the last restart.
        present = 0
        for batch_id in sent:
            n = count(server.port, TREES, 0, f"Notes = '{batch_id}'")
            if n == args.batch_size:
                present += 1
            elif n != 0 and not any(p.startswith(batch_id + ":") for p in partial):
                partial.append(f"{batch_id}: {n} of {args.batch_size} (final check)")
            if batch_id in acknowledged and n != args.batch_size and not any(p.startswith(batch_id + " ") for p in lost):
                lost.append(f"{batch_id} (acknowledged): {n} of {args.batch_size} (final check)")
        total = count(server.port, TREES, 0, "1=1")
        ids = query(server.port, TREES, 0, where="1=1", returnIdsOnly="true")["objectIds"]
        paged = paged_ids(server.port, TREES, 0, "OBJECTID")
        committed_in_flight = sum(1 for b in in_flight_at_kill
                                  if count(server.port, TREES, 0, f"Notes = '{b}'") == args.batch_size)

        check(f"crash safety: {args.kills} kill -9 during batches, server restarted every time", len(restarts) == args.kills,
              f"{len(restarts)} restarts")
        check(f"crash safety: every kill landed with a batch in flight ({len(in_flight_at_kill)} in flight: "
              f"{committed_in_flight} committed before the kill, {len(in_flight_at_kill) - committed_in_flight} rolled back)",
              len(in_flight_at_kill) >= args.kills, f"only {len(in_flight_at_kill)} batches in flight over {args.kills} kills")
        check(f"crash safety: every batch all or nothing ({len(sent)} batches, {present} present)", not partial, "; ".join(partial[:10]))
        check(f"crash safety: every acknowledged batch present ({len(acknowledged)} acknowledged)", not lost, "; ".join(lost[:10]))
        check("crash safety: no batch refused by the server", not refused, "; ".join(f"{b}: {a}" for b, a in refused[:3]))
        check(f"crash safety: layer count is the sample's {base} plus the present batches ({total})",
              total == base + present * args.batch_size, f"{total} != {base} + {present} x {args.batch_size}")
        check(f"crash safety: object ids unique ({len(ids)})", len(ids) == len(set(ids)) == total,
              f"{len(ids)} ids, {len(set(ids))} distinct, count {total}")
        check(f"crash safety: paging through the layer (pages of 1,000) gives every object id once ({len(paged)})",
              len(paged) == len(set(paged)) and set(paged) == set(ids), f"{len(paged)} paged, {len(set(paged))} distinct, "
              f"{len(set(ids) - set(paged))} missing, {len(set(paged) - set(ids))} extra")
        if restarts:
            log(f"restarts: {min(restarts):.1f}-{max(restarts):.1f} s")
    finally:
        server.stop()


def graceful_stop_during_batches(args, logs, deadline):
    """SIGTERM while a batch is being sent: the server finishes in-flight requests, then exits 0. Every
    batch is all or nothing, every answered batch is present, and no batch is written without being
    answered (a graceful stop does not drop an answer)."""
    rounds = args.term_rounds
    rng = random.Random(args.seed + 3)
    database = fresh_database(args, "graceful.sqlite")
    server = Server(args.bin, database, logs, "graceful")
    bad_exit, partial, lost, unanswered_written = [], [], [], []
    answered_in_flight = 0
    log(f"graceful stop: {rounds} SIGTERM during batches of {args.batch_size} adds")
    try:
        server.start()
        token = sign_in(server.port, "editor01", "sample-editor01")
        warmup = BatchSender(server.port, token, 0, args.batch_size, rng, 1)
        warmup.start()
        warmup.join(timeout=300)
        if not warmup.durations:
            raise ServiceFailure(f"a first batch: {warmup.error} {warmup.refused}")
        batch_seconds = warmup.durations[0]
        for round_number in range(1, rounds + 1):
            if time.monotonic() > deadline:
                raise Deadline(f"graceful stops stopped after {round_number - 1} of {rounds}")
            if not server.alive():
                server.start()
                token = sign_in(server.port, "editor01", "sample-editor01")
            sender = BatchSender(server.port, token, 100 + round_number, args.batch_size, rng, limit=10)
            sender.start()
            time.sleep(rng.uniform(0.0, 2.0 * batch_seconds))
            stop_began = time.monotonic()
            server.process.send_signal(signal.SIGTERM)
            sender.stop_flag.set()
            try:
                code = server.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                code = "no exit within 60 s"
                server.kill()
            stop_seconds = time.monotonic() - stop_began
            if code != 0:
                bad_exit.append(f"round {round_number}: {code}")
            sender.join(timeout=150)
            server.start()
            token = sign_in(server.port, "editor01", "sample-editor01")
            for batch_id in sender.sent:
                n = count(server.port, TREES, 0, f"Notes = '{batch_id}'")
                answered = batch_id in sender.acknowledged
                if n not in (0, args.batch_size):
                    partial.append(f"{batch_id}: {n} of {args.batch_size}")
                if answered and n != args.batch_size:
                    lost.append(f"{batch_id}: answered, {n} of {args.batch_size}")
                if not answered and n != 0:
                    unanswered_written.append(f"{batch_id}: not answered, but {n} written")
            answered_in_flight += 1 if sender.sent and sender.sent[-1] in sender.acknowledged else 0
            log(f"SIGTERM {round_number}: exit {code} after {stop_seconds:.2f} s; batches sent {len(sender.sent)}, "
                f"answered {len(sender.acknowledged)}")
        check(f"graceful stop: {rounds} SIGTERM during batches, exit 0 every time (the last batch answered in "
              f"{answered_in_flight} rounds)", not bad_exit, "; ".join(bad_exit))
        check("graceful stop: every batch all or nothing, every answered batch present", not partial and not lost,
              "; ".join((partial + lost)[:5]))
        check("graceful stop: no batch written without its answer", not unanswered_written, "; ".join(unanswered_written[:5]))
    finally:
        server.stop()


def sample_counts():
    """Feature count of every sample layer, from the sample files: {(service, layer): n}."""
    counts = {}
    for service in (TREES, DAMAGE):
        folder = os.path.join("Samples", service, "features")
        for name in sorted(os.listdir(folder)):
            layer, extension = os.path.splitext(name)
            if extension in (".json", ".geojson"):
                with open(os.path.join(folder, name)) as file:
                    counts[(service, int(layer))] = len(json.load(file)["features"])
    return counts


def fresh_database(args, name):
    database = os.path.join(args.work, name)
    for suffix in ("", "-wal", "-shm", "-journal"):
        if os.path.exists(database + suffix):
            os.remove(database + suffix)
    return database


def crash_during_first_start(args, logs, deadline):
    """kill -9 while the first start loads the samples into a new database file, then restart: every
    sample layer is there whole (the load is one transaction per service), and the server answers."""
    rng = random.Random(args.seed + 1)
    expected = sample_counts()
    wrong = []
    rounds = args.start_kills
    # How long a first start takes (exec to the port line, samples loaded into a new file).
    server = Server(args.bin, fresh_database(args, "first-start.sqlite"), logs, "first-start-0")
    try:
        window = server.start()
    finally:
        server.stop()
    log(f"crash during the first start: {rounds} kills within the {window:.2f} s a first start takes")
    before_port = 0
    for round_number in range(1, rounds + 1):
        if time.monotonic() > deadline:
            raise Deadline(f"first-start kills stopped after {round_number - 1} of {rounds}")
        database = fresh_database(args, "first-start.sqlite")
        server = Server(args.bin, database, logs, f"first-start-{round_number}")
        out_path = os.path.join(logs, f"first-start-{round_number}-killed.out")
        try:
            with open(out_path, "w") as out:
                server.process = subprocess.Popen([args.bin, "serve", "--port", "0", "--database", database],
                                                  stdout=out, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
            time.sleep(rng.uniform(0.0, window))
            server.kill()
            with open(out_path) as out:
                before_port += 0 if "  port: " in out.read() else 1
            server.start()
            got = {key: count(server.port, key[0], key[1], "1=1") for key in expected}
            if got != expected:
                wrong.append(f"round {round_number}: {got} != {expected}")
        finally:
            server.stop()
    check(f"crash during first start: {rounds} kill -9 ({before_port} before the port was printed), every sample layer "
          f"whole after the restart", not wrong, "; ".join(wrong[:5]))


def crash_during_post(args, logs, deadline):
    """kill -9 while a version with many edits is posted to DEFAULT, then restart: the posted rows are
    all in DEFAULT or none is; an acknowledged post is there; the version still shows its edits; a
    post that did not land is done again after the restart."""
    rounds = args.post_kills
    size = args.batch_size
    log(f"crash during post: {rounds} kills, versions of {size} adds")
    database = fresh_database(args, "post.sqlite")
    rng = random.Random(args.seed + 2)
    server = Server(args.bin, database, logs, "post")
    try:
        server.start()
        sample = count(server.port, DAMAGE, 0, "1=1")
        landed_total = 0
        partial, lost, not_in_version, reposted, paging_wrong = [], [], [], [], []
        post_seconds = None
        in_flight = 0
        for round_number in range(0, rounds + 1):
            if time.monotonic() > deadline:
                raise Deadline(f"post kills stopped after {round_number} of {rounds}")
            if not server.alive():
                server.start()
            port = server.port
            token = sign_in(port, "editor01", "sample-editor01")
            tag = f"post-r{round_number:02d}"
            created = vm(port, "/create", {"versionName": f"crashpost_{round_number:02d}_{args.seed}", "accessPermission": "public", "token": token})
            guid = created["versionInfo"]["versionGuid"].strip("{}")
            name = created["versionInfo"]["versionName"]
            features = [{"attributes": {"placename": f"{tag}-{i}", "typdamage": "Minor", "primcause": "Wind", "notes": tag},
                         "geometry": {"x": -88.2 + rng.random() * 0.1, "y": 41.75 + rng.random() * 0.1, "spatialReference": {"wkid": 4326}}}
                        for i in range(size)]
            answer = request(port, f"/arcgis/rest/services/{DAMAGE}/FeatureServer/0/applyEdits",
                             {"adds": json.dumps(features), "gdbVersion": name, "token": token, "f": "json"}, timeout=120)
            if not all(r.get("success") for r in answer.get("addResults", [None])):
                raise ServiceFailure(f"{tag}: adds in the version: {json.dumps(answer)[:300]}")
            vm(port, f"/versions/{guid}/reconcile", {"token": token})
            outcome = {}

            def post():
                began = time.monotonic()
                try:
                    outcome["answer"] = request(port, f"{VMS}/versions/{guid}/post", {"token": token, "f": "json"}, timeout=120)
                    outcome["seconds"] = time.monotonic() - began
                except Exception as error:  # noqa: BLE001 - killed under the request
                    outcome["error"] = error

            poster = threading.Thread(target=post, daemon=True)
            poster.start()
            if round_number == 0:
                # The first post is not interrupted: it measures how long a post takes.
                poster.join(timeout=120)
                post_seconds = outcome.get("seconds")
                if not outcome.get("answer", {}).get("success"):
                    raise ServiceFailure(f"{tag}: post: {outcome}")
                log(f"posting {size} adds took {post_seconds:.2f} s")
                landed_total += size
                continue
            time.sleep(rng.uniform(0.0, 1.5 * post_seconds))
            server.kill()
            poster.join(timeout=150)
            acknowledged = bool(outcome.get("answer", {}).get("success"))
            in_flight += 0 if "answer" in outcome else 1
            server.start()
            port = server.port
            token = sign_in(port, "editor01", "sample-editor01")
            in_default = count(port, DAMAGE, 0, f"notes = '{tag}'")
            in_version = count(port, DAMAGE, 0, f"notes = '{tag}'", gdbVersion=name, token=token)
            if in_default not in (0, size):
                partial.append(f"{tag}: {in_default} of {size} in DEFAULT")
            if acknowledged and in_default != size:
                lost.append(f"{tag}: acknowledged post, {in_default} of {size} in DEFAULT")
            if in_version != size:
                not_in_version.append(f"{tag}: {in_version} of {size} in the version")
            # Paging in the version merges DEFAULT's rows with the version's own.
            version_ids = query(port, DAMAGE, 0, where="1=1", returnIdsOnly="true", gdbVersion=name, token=token)["objectIds"]
            version_paged = paged_ids(port, DAMAGE, 0, "objectid", gdbVersion=name, token=token)
            if sorted(version_paged) != sorted(version_ids) or len(set(version_paged)) != len(version_paged):
                paging_wrong.append(f"{tag}: {len(version_paged)} paged ({len(set(version_paged))} distinct), {len(version_ids)} ids")
            if in_default == 0:
                vm(port, f"/versions/{guid}/reconcile", {"token": token})
                vm(port, f"/versions/{guid}/post", {"token": token})
                again = count(port, DAMAGE, 0, f"notes = '{tag}'")
                if again != size:
                    reposted.append(f"{tag}: {again} of {size} after posting again")
            landed_total += size
            log(f"kill {round_number:2d} during post: {'acknowledged' if acknowledged else 'not answered'}; "
                f"in DEFAULT after restart {in_default}, in the version {in_version}")
        total = count(server.port, DAMAGE, 0, "1=1")
        check(f"crash during post: {rounds} kill -9 during posts ({in_flight} unanswered), the posted rows all or nothing in DEFAULT",
              not partial, "; ".join(partial[:5]))
        check("crash during post: every acknowledged post is in DEFAULT", not lost, "; ".join(lost[:5]))
        check("crash during post: the version still shows all its edits after the restart", not not_in_version, "; ".join(not_in_version[:5]))
        check("crash during post: a post cut off by the kill posts again after the restart", not reposted, "; ".join(reposted[:5]))
        check("crash during post: paging through the version after the restart gives every object id once", not paging_wrong,
              "; ".join(paging_wrong[:5]))
        check(f"crash during post: DEFAULT holds the sample's {sample} plus every version's adds ({total})",
              total == sample + landed_total, f"{total} != {sample} + {landed_total}")
    finally:
        server.stop()


# --- 2. concurrent crews ----------------------------------------------------------------------------

DAMAGE = "DamageAssessment"
VMS = f"/arcgis/rest/services/{DAMAGE}/VersionManagementServer"
RECONCILE_REQUIRED = -2147217137


def vm(port, path, params, timeout=60):
    params = dict(params)
    params.setdefault("f", "json")
    answer = request(port, f"{VMS}{path}", params, timeout=timeout)
    if answer.get("success") is False or "error" in answer and answer.get("success") is not True:
        raise ServiceFailure(json.dumps(answer)[:500])
    return answer


class Crew(threading.Thread):
    """One crew: own user, own version, edits, reconcile + post with bounded retries."""

    def __init__(self, number, crews, port, round_number, adds, barrier, deadline, seed):
        super().__init__(daemon=True)
        self.number, self.crews, self.port, self.round = number, crews, port, round_number
        self.adds, self.barrier, self.deadline = adds, barrier, deadline
        self.rng = random.Random(seed)
        self.user = f"crew{number + 1:02d}"
        self.tag = f"r{round_number}-{self.user}"
        # Odd rounds detect conflicts by object, even rounds by attribute: the shared features change
        # the same field, so both must report them.
        self.detection = "byObject" if round_number % 2 else "byAttribute"
        # Sample feature k+1 is edited by crew k only. N+1+k is shared by crews k and k+1, which both
        # change its `notes` (a conflict by object and by attribute). 2N+1+k is shared by crews k and
        # k+1 too, but crew k changes its `placename` and crew k+1 its `fulladdr` (a conflict by object
        # only; by attribute the two changes merge).
        self.own = [number + 1]
        self.shared = [crews + 1 + number, crews + 1 + (number - 1) % crews]
        self.split = {2 * crews + 1 + number: "placename", 2 * crews + 1 + (number - 1) % crews: "fulladdr"}
        self.added = []          # object ids added in the version (kept)
        self.updated_adds = []   # object ids added then updated
        self.deleted_adds = []   # object ids added then deleted
        self.conflicts = set()   # object ids reported by reconcile (conflicts endpoint), over all attempts
        self.conflict_kinds = set()
        self.post_moment = None
        self.version_name = None
        self.done = set()        # edit steps answered with success
        self.in_flight = None    # the edit step being sent
        self.attempts = 0
        self.error = None
        self.timings = {}

    def call(self, path, **params):
        params["token"] = self.token
        return vm(self.port, path, params)

    def edit(self, **params):
        params.update({"gdbVersion": self.version_name, "sessionID": self.session, "rollbackOnFailure": "true",
                       "token": self.token, "f": "json"})
        answer = request(self.port, f"/arcgis/rest/services/{DAMAGE}/FeatureServer/0/applyEdits", params)
        if "error" in answer:
            raise ServiceFailure(f"applyEdits: {answer['error']}")
        for key in ("addResults", "updateResults", "deleteResults"):
            for result in answer.get(key, []):
                if not result.get("success"):
                    raise ServiceFailure(f"applyEdits {key}: {result}")
        return answer

    def run(self):
        try:
            self.work()
        except Exception as error:  # noqa: BLE001 - reported by the main thread
            self.error = f"{type(error).__name__}: {error}"
            try:
                self.barrier.abort()
            except Exception:  # noqa: BLE001
                pass

    def work(self):
        began = time.monotonic()
        self.token = sign_in(self.port, self.user, SAMPLE_EDITOR_PASSWORD)
        created = self.call("/create", versionName=f"crew_{self.tag.replace('-', '_')}", accessPermission="public",
                            description=f"reliability crew {self.user}")
        self.guid = created["versionInfo"]["versionGuid"]
        self.version_name = created["versionInfo"]["versionName"]
        self.session = "{" + str(uuid.uuid4()).upper() + "}"
        # Every version exists before anyone edits or posts: every shared edit is a real conflict.
        self.barrier.wait(timeout=120)
        base = f"/versions/{self.guid.strip('{}')}"
        self.call(f"{base}/startReading", sessionId=self.session)
        self.call(f"{base}/startEditing", sessionId=self.session)

        def feature(i):
            return {"attributes": {"placename": f"{self.tag}-add-{i}", "typdamage": "Minor", "primcause": "Wind",
                                   "numstories": 1, "notes": f"{self.tag}-add"},
                    "geometry": {"x": -88.2 + self.rng.random() * 0.1, "y": 41.75 + self.rng.random() * 0.1,
                                 "spatialReference": {"wkid": 4326}}}

        # Edits in a random order of small requests, as a crew in the field would send them.
        steps = ["adds", "own", "shared0", "shared1", "split"]
        self.rng.shuffle(steps)
        steps.insert(steps.index("adds") + 1, "adds-followup")
        for step in steps:
            if time.monotonic() > self.deadline:
                raise Deadline("crew edits")
            self.in_flight = step
            if step == "adds":
                answer = self.edit(adds=json.dumps([feature(i) for i in range(self.adds)]))
                ids = [r["objectId"] for r in answer["addResults"]]
                self.added = ids[2:]
                self.updated_adds = ids[:1]
                self.deleted_adds = ids[1:2]
            elif step == "adds-followup":
                self.edit(updates=json.dumps([{"attributes": {"objectid": i, "notes": f"{self.tag}-add-updated"}} for i in self.updated_adds]),
                          deletes=",".join(str(i) for i in self.deleted_adds))
            elif step == "own":
                self.edit(updates=json.dumps([{"attributes": {"objectid": i, "notes": f"{self.tag}-own", "estloss": 1000 * (self.number + 1)}}
                                              for i in self.own]))
            elif step == "split":
                self.edit(updates=json.dumps([{"attributes": {"objectid": oid, field: f"{self.tag}-{field}"}}
                                              for oid, field in self.split.items()]))
            else:
                oid = self.shared[int(step[-1])]
                self.edit(updates=json.dumps([{"attributes": {"objectid": oid, "notes": f"{self.tag}-shared"}}]))
            self.done.add(step)
            self.in_flight = None
            time.sleep(self.rng.uniform(0, 0.05))
        self.timings["edits"] = time.monotonic() - began

        # Reconcile + post; a post refused because DEFAULT moved since the reconcile is retried.
        posted_at = None
        for attempt in range(1, 41):
            if time.monotonic() > self.deadline:
                raise Deadline(f"{self.user}: reconcile + post, attempt {attempt}")
            self.attempts = attempt
            reconciled = self.call(f"{base}/reconcile", sessionId=self.session, abortIfConflicts="false",
                                   conflictDetection=self.detection, withPost="false")
            if reconciled.get("hasConflicts"):
                listed = self.call(f"{base}/conflicts")
                for layer in listed.get("conflicts", []):
                    for kind in ("updateUpdateConflicts", "updateDeleteConflicts", "deleteUpdateConflicts"):
                        for entry in layer.get(kind, []):
                            self.conflicts.add(entry["objectId"])
                            self.conflict_kinds.add(kind)
            params = {"sessionId": self.session, "token": self.token, "f": "json"}
            answer = request(self.port, f"{VMS}{base}/post", params)
            if answer.get("success") is True:
                self.post_moment = answer["moment"]
                posted_at = time.monotonic()
                break
            if answer.get("error", {}).get("extendedCode") != RECONCILE_REQUIRED:
                raise ServiceFailure(f"post: {json.dumps(answer)[:400]}")
            time.sleep(self.rng.uniform(0.01, 0.1 * min(attempt, 5)))
        if self.post_moment is None:
            raise ServiceFailure(f"{self.user}: not posted after {self.attempts} reconcile + post attempts")
        self.timings["post"] = posted_at - began
        self.call(f"{base}/stopEditing", sessionId=self.session, saveEdits="true")
        self.call(f"{base}/stopReading", sessionId=self.session)


def write_crew_users(path, crews):
    users = [{"username": f"crew{n + 1:02d}", "passwordHash": SAMPLE_EDITOR_HASH, "role": "user", "ownedServices": []}
             for n in range(crews)]
    users.append({"username": "admin", "passwordHash": "$2b$10$7gANeYjR8ro1TQaVVNd0LOmycBe/tSSQfhHJXS7uAjP0ivLOAxgGK",
                  "role": "admin", "ownedServices": ["TreesOfPortland", "DamageAssessment"]})
    with open(path, "w") as file:
        json.dump({"users": users}, file, indent=2)


def crews_round(args, server, round_number, deadline):
    n = args.crews
    barrier = threading.Barrier(n)
    # DEFAULT's values of the features whose different fields two crews change, before the round.
    ancestors = {f["attributes"]["objectid"]: f["attributes"] for f in query(
        server.port, DAMAGE, 0, objectIds=",".join(str(2 * n + 1 + k) for k in range(n)), outFields="objectid,placename,fulladdr",
        returnGeometry="false")["features"]}
    crews = [Crew(i, n, server.port, round_number, args.crew_adds, barrier, deadline, args.seed * 1000 + round_number * 10 + i)
             for i in range(n)]
    began = time.monotonic()
    for crew in crews:
        crew.start()
    for crew in crews:
        crew.join(timeout=max(1.0, deadline - time.monotonic() + 30))
    took = time.monotonic() - began
    label = f"crews round {round_number}"
    errors = [f"{c.user}: {c.error}" for c in crews if c.error or c.is_alive()]
    if not check(f"{label}: {n} crews signed in, created versions, edited, reconciled and posted", not errors, "; ".join(errors)[:1500]):
        return took
    attempts = [c.attempts for c in crews]
    log(f"{label}: {took:.1f} s; reconcile + post attempts per crew {attempts}; post order "
        f"{[c.user for c in sorted(crews, key=lambda c: c.post_moment)]}")
    port = server.port

    def notes(oid):
        features = query(port, DAMAGE, 0, objectIds=str(oid), outFields="objectid,notes,estloss,placename,fulladdr",
                         returnGeometry="false")["features"]
        return features[0]["attributes"] if features else None

    # Non-conflicting edits of every crew are in DEFAULT.
    missing = []
    for c in crews:
        kept = count(port, DAMAGE, 0, f"notes = '{c.tag}-add'")
        if kept != len(c.added):
            missing.append(f"{c.user}: {kept} of {len(c.added)} adds")
        for oid in c.updated_adds:
            a = notes(oid)
            if not a or a["notes"] != f"{c.tag}-add-updated":
                missing.append(f"{c.user}: added then updated {oid}: {a}")
        for oid in c.deleted_adds:
            if notes(oid) is not None:
                missing.append(f"{c.user}: added then deleted {oid} is in DEFAULT")
        for oid in c.own:
            a = notes(oid)
            if not a or a["notes"] != f"{c.tag}-own" or a["estloss"] != 1000 * (c.number + 1):
                missing.append(f"{c.user}: own update of {oid}: {a}")
    check(f"{label}: no edit lost (adds, updates and deletes of every crew in DEFAULT)", not missing, "; ".join(missing[:10]))

    # Shared features: the crew that posted last wins, and its reconcile reported the conflict.
    wrong, unreported = [], []
    for k in range(n):
        oid = n + 1 + k
        pair = [crews[k], crews[(k + 1) % n]]
        first, last = sorted(pair, key=lambda c: c.post_moment)
        a = notes(oid)
        if not a or a["notes"] != f"{last.tag}-shared":
            wrong.append(f"feature {oid} shared by {first.user} (posted first) and {last.user}: DEFAULT has {a and a['notes']}")
        if oid not in last.conflicts:
            unreported.append(f"feature {oid}: {last.user} posted after {first.user} but its reconciles reported {sorted(last.conflicts)}")
    check(f"{label}: each of the {n} features whose notes two crews changed holds the last poster's edit", not wrong,
          "; ".join(wrong[:10]))

    # Features whose different fields two crews changed: by attribute both changes land and no conflict is
    # reported; by object the later poster's whole row wins (the other crew's field is back at the
    # ancestor's value) and its reconcile reported the conflict.
    by_attribute = crews[0].detection == "byAttribute"
    split_wrong = []
    expected_conflicts = {c.user: {o for o in c.shared if c is max((c2 for c2 in crews if o in c2.shared), key=lambda x: x.post_moment)}
                          for c in crews}
    for k in range(n):
        oid = 2 * n + 1 + k
        a, b = crews[k], crews[(k + 1) % n]  # a changes placename, b fulladdr
        first, last = sorted([a, b], key=lambda c: c.post_moment)
        got = notes(oid)
        if by_attribute:
            want = {"placename": f"{a.tag}-placename", "fulladdr": f"{b.tag}-fulladdr"}
        else:
            expected_conflicts[last.user].add(oid)
            ancestor = ancestors[oid]
            want = {"placename": f"{a.tag}-placename" if last is a else ancestor["placename"],
                    "fulladdr": f"{b.tag}-fulladdr" if last is b else ancestor["fulladdr"]}
        if not got or {f: got[f] for f in want} != want:
            split_wrong.append(f"feature {oid} ({a.user} placename, {b.user} fulladdr, {last.user} posted last): "
                               f"DEFAULT has {got and {f: got[f] for f in want}}, expected {want}")
    check(f"{label}: each of the {n} features whose different fields two crews changed holds "
          f"{'both changes (merged by attribute)' if by_attribute else 'the last poster row (by object)'}",
          not split_wrong, "; ".join(split_wrong[:10]))

    for c in crews:
        for oid in expected_conflicts[c.user] - c.conflicts:
            unreported.append(f"feature {oid}: {c.user} posted last but its reconciles reported {sorted(c.conflicts)}")
    check(f"{label}: every overlapping edit pair was reported as a conflict by reconcile "
          f"({sum(len(v) for v in expected_conflicts.values())} conflicts)", not unreported, "; ".join(unreported[:10]))
    spurious = [f"{c.user}: {sorted(c.conflicts - expected_conflicts[c.user])}" for c in crews if c.conflicts - expected_conflicts[c.user]]
    kinds = set().union(*(c.conflict_kinds for c in crews))
    check(f"{label}: no other conflict reported (kinds {sorted(kinds)})",
          not spurious and kinds <= {"updateUpdateConflicts"}, "; ".join(spurious[:10]))
    expected_total = args.sample_damage + n * (args.crew_adds - 1)
    total = count(port, DAMAGE, 0, "1=1")
    check(f"{label}: DEFAULT holds the sample's features plus every crew's kept adds ({total})", total == expected_total,
          f"{total} != {expected_total}")
    # No version is left locked.
    infos = vm(port, "/versionInfos", {"token": sign_in(port, "admin", "sample-admin")})["versions"]
    locked = [v["versionName"] for v in infos if v.get("isLocked") or v.get("isBeingEdited") or v.get("isBeingRead")]
    check(f"{label}: no version left locked", not locked, str(locked))
    return took


def crew_state(port, crew, token, **view):
    """What of a crew's own edits a view shows: adds still tagged, the added-then-updated one, whether the
    added-then-deleted one is there, and the notes of its own sample feature."""
    state = {"add": count(port, DAMAGE, 0, f"notes = '{crew.tag}-add'", token=token, **view),
             "add-updated": count(port, DAMAGE, 0, f"notes = '{crew.tag}-add-updated'", token=token, **view)}
    if crew.deleted_adds:
        state["deleted-present"] = count(port, DAMAGE, 0, "1=1", objectIds=",".join(map(str, crew.deleted_adds)), token=token, **view)
    own = query(port, DAMAGE, 0, objectIds=str(crew.own[0]), outFields="notes", returnGeometry="false", token=token, **view)["features"]
    state["own"] = own[0]["attributes"]["notes"] if own else None
    return state


def crews_crash_round(args, server, round_number, deadline, round_seconds):
    """kill -9 while the crews work (creating, editing, reconciling or posting), restart, then: every
    version shows exactly its crew's answered edits (an edit in flight at the kill all or nothing), and
    once every version is reconciled and posted after the restart, DEFAULT shows the same."""
    n = args.crews
    label = f"crews killed, round {round_number}"
    barrier = threading.Barrier(n)
    crews = [Crew(i, n, server.port, round_number, args.crew_adds, barrier, deadline, args.seed * 1000 + round_number * 10 + i)
             for i in range(n)]
    # Signing in (bcrypt) takes the first part of a round: the kill lands in the rest of it.
    delay = random.Random(args.seed + round_number).uniform(0.3 * round_seconds, 1.1 * round_seconds)
    for crew in crews:
        crew.start()
    time.sleep(delay)
    server.kill()
    for crew in crews:
        crew.join(timeout=150)
    if any(c.is_alive() for c in crews):
        check(f"{label}: the crews end after the kill", False, "a crew is still blocked after 150 s")
        return
    server.start()
    port = server.port
    a = args.crew_adds
    wrong, states = [], {}
    phases = []
    for c in crews:
        if c.version_name is None:
            phases.append("-")
            continue
        phases.append("posted" if c.post_moment else (c.in_flight or ("between edits" if len(c.done) < 6 else "reconcile/post")))
        token = sign_in(port, c.user, SAMPLE_EDITOR_PASSWORD)
        got = crew_state(port, c, token, gdbVersion=c.version_name)
        states[c.user] = (c, got)
        if "adds" in c.done:
            followed = got["add"] == a - 2 and got["add-updated"] == 1 and got.get("deleted-present") == 0
            not_followed = got["add"] == a and got["add-updated"] == 0 and got.get("deleted-present") == 1
            if "adds-followup" in c.done and not followed:
                wrong.append(f"{c.user}: answered update and delete of its adds not in the version: {got}")
            elif not (followed or not_followed):
                wrong.append(f"{c.user}: update + delete of its adds in flight, neither all nor nothing: {got}")
        elif c.in_flight == "adds":
            if got["add"] not in (0, a) or got["add-updated"]:
                wrong.append(f"{c.user}: adds in flight, neither all nor nothing: {got}")
        elif got["add"] or got["add-updated"]:
            wrong.append(f"{c.user}: adds never sent, yet in the version: {got}")
        if "own" in c.done and got["own"] != f"{c.tag}-own":
            wrong.append(f"{c.user}: answered update of feature {c.own[0]} not in the version: {got['own']}")
        if "own" not in c.done and c.in_flight != "own" and got["own"] == f"{c.tag}-own":
            wrong.append(f"{c.user}: update of feature {c.own[0]} never sent, yet in the version")
    log(f"{label}: killed at {delay:.2f} s; crews were at {phases}")
    check(f"{label}: after the restart every version shows exactly its crew's answered edits", not wrong, "; ".join(wrong[:6]))

    # Reconcile and post every version (no session: the kill ended them), then DEFAULT shows the same.
    missing = []
    for user, (c, before) in states.items():
        token = sign_in(port, c.user, SAMPLE_EDITOR_PASSWORD)
        guid = c.guid.strip("{}")
        vm(port, f"/versions/{guid}/reconcile", {"token": token})
        vm(port, f"/versions/{guid}/post", {"token": token})
        after = crew_state(port, c, token)
        if after != before:
            missing.append(f"{user}: version showed {before}, DEFAULT shows {after}")
    check(f"{label}: once reconciled and posted after the restart, DEFAULT holds every crew's edits", not missing, "; ".join(missing[:6]))


def concurrent_crews(args, logs, deadline):
    log(f"concurrent crews: {args.crews} crews, {args.crew_rounds} rounds, {args.crew_adds} adds each")
    database = fresh_database(args, "crews.sqlite")
    users = os.path.join(args.work, "crew-users.json")
    write_crew_users(users, args.crews)
    server = Server(args.bin, database, logs, "crews", users=users)
    try:
        server.start()
        args.sample_damage = count(server.port, DAMAGE, 0, "1=1")
        if args.sample_damage < 3 * args.crews:  # features 1..3N are edited
            check("concurrent crews: enough sample features", False, f"{args.sample_damage} < {3 * args.crews}")
            return
        round_seconds = 1.0
        for round_number in range(1, args.crew_rounds + 1):
            if time.monotonic() > deadline:
                raise Deadline(f"concurrent crews stopped after {round_number - 1} of {args.crew_rounds} rounds")
            round_seconds = crews_round(args, server, round_number, deadline) or round_seconds
            args.sample_damage = count(server.port, DAMAGE, 0, "1=1")
        for k in range(1, args.crew_kills + 1):
            if time.monotonic() > deadline:
                raise Deadline(f"crews killed stopped after {k - 1} of {args.crew_kills} rounds")
            crews_crash_round(args, server, args.crew_rounds + k, deadline, round_seconds)
    finally:
        server.stop()


def server_logs(logs):
    """Reads the request logs of every server of the run: no request answered 5xx, no crash report; the
    slowest requests are printed (a request that takes seconds is worth a look, as the 11 s returnIdsOnly
    answers were)."""
    pattern = re.compile(r"^\S+ (GET|POST) (\S+) (\d{3}) ([\d.]+)(ms|s)\b")
    requests, errors, crashes = [], [], []
    for name in sorted(os.listdir(logs)):
        if not name.endswith(".err"):
            continue
        with open(os.path.join(logs, name), errors="replace") as file:
            for line in file:
                match = pattern.match(line)
                if match:
                    seconds = float(match.group(4)) / (1000 if match.group(5) == "ms" else 1)
                    requests.append((seconds, match.group(1), match.group(2), name))
                    if match.group(3).startswith("5"):
                        errors.append(f"{name}: {line.strip()}")
                elif "Fatal error" in line or "Crash" in line or "Segmentation" in line:
                    crashes.append(f"{name}: {line.strip()}")
    requests.sort(reverse=True)
    for seconds, method, path, name in requests[:3]:
        log(f"slowest: {method} {path} {seconds * 1000:.0f} ms ({name})")
    check(f"server logs: {len(requests)} requests, none answered 5xx", not errors, "; ".join(errors[:5]))
    check("server logs: no crash reported", not crashes, "; ".join(crashes[:5]))


# --- main ---------------------------------------------------------------------------------------------

def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", required=True, help="the maprules binary")
    parser.add_argument("--size", choices=["ci", "full"], default="ci",
                        help="ci: batches of 1,000 adds, 5 post kills, 3 crew rounds; full: 2,000 adds, 20 post kills, 10 crew rounds")
    parser.add_argument("--kills", type=int, default=20, help="kill -9 during applyEdits batches")
    parser.add_argument("--start-kills", type=int, default=5, help="kill -9 during the first start (sample load)")
    parser.add_argument("--post-kills", type=int, help="kill -9 during posts (ci 5, full 20)")
    parser.add_argument("--term-rounds", type=int, default=5, help="SIGTERM during batches (graceful stop)")
    parser.add_argument("--crew-kills", type=int, help="crew rounds with a kill -9 while the crews work (ci 3, full 10)")
    parser.add_argument("--batch-size", type=int)
    parser.add_argument("--crews", type=int, default=8)
    parser.add_argument("--crew-rounds", type=int)
    parser.add_argument("--crew-adds", type=int, default=20)
    parser.add_argument("--only", choices=["crash", "first-start", "post", "graceful", "crews"])
    parser.add_argument("--seed", type=int, default=int(time.time()))
    parser.add_argument("--deadline", type=float, help="seconds for the whole run (ci 900, full 3600)")
    parser.add_argument("--work", default=".build-reliability", help="database files and logs")
    args = parser.parse_args()
    full = args.size == "full"
    args.batch_size = args.batch_size or (2000 if full else 1000)
    args.crew_rounds = args.crew_rounds or (10 if full else 3)
    args.post_kills = args.post_kills if args.post_kills is not None else (20 if full else 5)
    args.crew_kills = args.crew_kills if args.crew_kills is not None else (10 if full else 3)
    args.deadline = args.deadline or (3600 if full else 900)
    if args.crews < 2:
        parser.error("--crews must be at least 2 (shared features need two crews)")
    if args.crew_adds < 3:
        parser.error("--crew-adds must be at least 3")
    logs = os.path.join(args.work, "logs")
    shutil.rmtree(logs, ignore_errors=True)
    os.makedirs(logs, exist_ok=True)
    deadline = time.monotonic() + args.deadline
    log(f"seed {args.seed} (repeat with --seed {args.seed}); logs in {logs}")

    scenarios = (("crash", crash_safety), ("first-start", crash_during_first_start), ("post", crash_during_post),
                 ("graceful", graceful_stop_during_batches), ("crews", concurrent_crews))
    for name, scenario in scenarios:
        if args.only and args.only != name:
            continue
        began = time.monotonic()
        try:
            scenario(args, logs, deadline)
        except Deadline as stop:
            check(f"{name}: finished within the run's deadline of {args.deadline:.0f} s", False, str(stop))
        except Exception as error:  # noqa: BLE001 - any other failure is a failed check, then the next scenario
            check(f"{name}: ran to the end", False, f"{type(error).__name__}: {error}")
        log(f"{name}: {time.monotonic() - began:.1f} s")

    server_logs(logs)
    print(f"{passed} passed, {failed} failed", flush=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
