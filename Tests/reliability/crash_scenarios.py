"""Crash safety: kill -9 during applyEdits batches, during the first start and during posts; SIGTERM
during batches (see reliability.py for what each checks)."""
from harness import *  # noqa: F401,F403 - the shared harness: HTTP, Server, check, log, samples


# --- 1. crash safety --------------------------------------------------------------------------------

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


def crash_during_first_start(args, logs, deadline):
    """kill -9 while the first start loads the samples into a new database file (with --postgres: creates
    the new database and loads the samples into it), then restart: every sample layer is there whole (the
    load is one transaction per service), and the server answers."""
    rng = random.Random(args.seed + 1)
    expected = sample_counts()
    wrong = []
    rounds = args.start_kills
    # How long a first start takes (exec to the port line, samples loaded into a new file or database).
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
                server.process = subprocess.Popen([args.bin, "serve", "--port", "0", *storage_options(database)],
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
