"""Concurrent crews: 8 clients, each in its own branch version, editing with overlaps, then reconcile and
post; also rounds with a kill -9 while the crews work (see reliability.py for what each checks)."""
from harness import *  # noqa: F401,F403 - the shared harness: HTTP, Server, check, log, samples


# --- 2. concurrent crews ----------------------------------------------------------------------------

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
        self.add_results = []    # (object id, global id) of every add, as answered
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
                self.add_results = [(r["objectId"], r.get("globalId")) for r in answer["addResults"]]
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


def crews_round(args, servers, round_number, deadline):
    """One round of --crews crews, crew i talking to servers[i % len(servers)] (several servers: one
    service on one database); then DEFAULT is checked through every server. Answers the round's seconds and
    its crews (None when a crew failed)."""
    n = args.crews
    barrier = threading.Barrier(n)
    # DEFAULT's values of the features whose different fields two crews change, before the round.
    ancestors = {f["attributes"]["objectid"]: f["attributes"] for f in query(
        servers[0].port, DAMAGE, 0, objectIds=",".join(str(2 * n + 1 + k) for k in range(n)), outFields="objectid,placename,fulladdr",
        returnGeometry="false")["features"]}
    crews = [Crew(i, n, servers[i % len(servers)].port, round_number, args.crew_adds, barrier, deadline,
                  args.seed * 1000 + round_number * 10 + i)
             for i in range(n)]
    began = time.monotonic()
    for crew in crews:
        crew.start()
    for crew in crews:
        crew.join(timeout=max(1.0, deadline - time.monotonic() + 30))
    took = time.monotonic() - began
    label = f"crews round {round_number}"
    if len(servers) > 1:
        label += f" over {len(servers)} servers"
    errors = [f"{c.user}: {c.error}" for c in crews if c.error or c.is_alive()]
    if not check(f"{label}: {n} crews signed in, created versions, edited, reconciled and posted", not errors, "; ".join(errors)[:1500]):
        return took, None
    attempts = [c.attempts for c in crews]
    log(f"{label}: {took:.1f} s; reconcile + post attempts per crew {attempts}; post order "
        f"{[c.user for c in sorted(crews, key=lambda c: c.post_moment)]}")
    for server in servers:
        check_crews_round(args, crews, server.port, label if len(servers) == 1 else f"{label}, through {server.name}", ancestors)
    return took, crews


def check_crews_round(args, crews, port, label, ancestors):
    """DEFAULT after a crews round, read through the server on `port`."""
    n = len(crews)

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
    # No version is left locked (versionInfos does not tell locks: each crew's version is asked).
    locked = locked_versions(port, sign_in(port, "admin", "sample-admin"), [c.guid for c in crews])
    check(f"{label}: no version left locked", not locked, str(locked))


def locked_versions(port, token, guids):
    """The versions among `guids` that a session reads or edits, from each version's description."""
    locked = []
    for guid in guids:
        info = vm(port, f"/versions/{guid.strip('{}')}", {"token": token})
        if info.get("isLocked") or info.get("isBeingEdited") or info.get("isBeingRead"):
            locked.append(f"{info.get('versionName')} (lock owner {info.get('lockOwner')})")
    return locked


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
    once every version is reconciled and posted after the restart, DEFAULT shows the same (on PostgreSQL
    in the crew's own session, which outlives the process: see below)."""
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

    # Reconcile and post every version, then DEFAULT shows the same. On SQLite the locks are the server's
    # memory: the kill ended every session, so none is passed. On PostgreSQL they are rows of the database
    # the service lives in (shared by every server of it): a session outlives the death of the process that
    # granted it, so the crew goes on in its own session (passed to reconcile and post), then ends it.
    persistent = is_postgres(server.database)
    if persistent:
        held = locked_versions(port, sign_in(port, "admin", "sample-admin"), [c.guid for c, _ in states.values()])
        log(f"{label}: {len(held)} of the {len(states)} crews' versions still locked by their sessions after the restart")
    missing = []
    for user, (c, before) in states.items():
        token = sign_in(port, c.user, SAMPLE_EDITOR_PASSWORD)
        guid = c.guid.strip("{}")
        session = {"sessionId": c.session} if persistent and getattr(c, "session", None) else {}
        vm(port, f"/versions/{guid}/reconcile", {"token": token, **session})
        vm(port, f"/versions/{guid}/post", {"token": token, **session})
        if session:
            for what in ("stopEditing", "stopReading"):  # refused when the session was not (or no longer) editing or reading
                request(port, f"{VMS}/versions/{guid}/{what}", {**session, "saveEdits": "true", "token": token, "f": "json"})
        after = crew_state(port, c, token)
        if after != before:
            missing.append(f"{user}: version showed {before}, DEFAULT shows {after}")
    if persistent:
        missing += [f"{v}: still locked once its crew's session ended"
                    for v in locked_versions(port, sign_in(port, "admin", "sample-admin"), [c.guid for c, _ in states.values()])]
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
            round_seconds = crews_round(args, [server], round_number, deadline)[0] or round_seconds
            args.sample_damage = count(server.port, DAMAGE, 0, "1=1")
        for k in range(1, args.crew_kills + 1):
            if time.monotonic() > deadline:
                raise Deadline(f"crews killed stopped after {k - 1} of {args.crew_kills} rounds")
            crews_crash_round(args, server, args.crew_rounds + k, deadline, round_seconds)
    finally:
        server.stop()
