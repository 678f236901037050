"""Scale-out (--postgres only): two `maprules serve --postgres` processes on ONE database act as one service.

1. shared state: a token issued by one server is accepted by the other (and a made-up one refused); a
   version created through A is listed (and readable) through B at once; a session reading it through B
   keeps a session of A from editing it; a session editing it through A keeps a second session from
   reading or editing it through B, and once it stops, the second one can, which then keeps a third
   session out through A;
2. concurrent batches: applyEdits batches sent to both servers at the same time, all acknowledged, every
   object id and global id unique;
3. crews: the 8 crews of crews.py spread over both servers (crew i talks to server i % 2), --crew-rounds
   rounds; DEFAULT checked through BOTH servers as in crews.py (no edit lost, last poster wins, conflicts
   reported), every crew's add present once with the object id and global id its applyEdits answered
   (unique across the crews), and both servers showing the same rows and counts;
4. kill -9 of one server (alternately B and A) in the middle of an applyEdits batch sent to it, while the
   other server is sent queries and single adds without pause: every batch is all or nothing and every
   acknowledged batch present (counted through the surviving server), the surviving server answers every
   query and edit during and after the kill, and after the restart both show the same counts, object ids
   and global ids unique (--scale-kills rounds); then a server is killed while a session holds a version's
   edit lock through it: through the other server the version is free at once (within 5 s) and another
   session locks it;
5. two servers started at the same moment on a new database (--start-kills times): both come up and every
   sample layer is loaded once.
"""
from harness import *  # noqa: F401,F403 - the shared harness: HTTP, Server, check, log, samples
from crash_scenarios import BatchSender
from crews import crews_round, write_crew_users

PASSWORD = SAMPLE_EDITOR_PASSWORD


def refused(status, answer):
    """True for an ArcGIS refusal: an error object or success false (whatever the HTTP status, not 5xx)."""
    return status < 500 and isinstance(answer, dict) and ("error" in answer or answer.get("success") is False)


def succeeded(status, answer):
    return status == 200 and isinstance(answer, dict) and answer.get("success") is True and "error" not in answer


def brief(status, answer):
    return f"HTTP {status} {json.dumps(answer)[:300] if isinstance(answer, dict) else answer}"


def paged_rows(port, service, layer, oid_field, fields, where="1=1", page=1000, limit=1000, **params):
    """Every row's attributes (`fields`), page by page."""
    rows = []
    for number in range(limit):
        answer = query(port, service, layer, where=where, outFields=fields, resultOffset=number * page,
                       resultRecordCount=page, **params)
        rows.extend(f["attributes"] | ({"geometry": f["geometry"]} if "geometry" in f else {}) for f in answer["features"])
        if not answer.get("exceededTransferLimit"):
            return sorted(rows, key=lambda r: r[oid_field])
    raise ServiceFailure(f"paging {service}/{layer}: still more after {limit} pages")


def guid(value):
    return value.strip("{}").upper() if isinstance(value, str) else value


def apply_edits(port, service, layer, token, **params):
    params.update({"token": token, "f": "json"})
    return request(port, f"/arcgis/rest/services/{service}/FeatureServer/{layer}/applyEdits", params, timeout=120)


def one_tree(note, rng):
    return {"attributes": {"Address": "1 Scale Out St", "Site_Type": "TL", "Condition": "Good", "DBH": 2.0, "Notes": note},
            "geometry": {"x": -122.7 + rng.random() * 0.2, "y": 45.45 + rng.random() * 0.15, "spatialReference": {"wkid": 4326}}}


# --- comparisons through both servers -----------------------------------------------------------

def layer_counts(port):
    return {key: count(port, key[0], key[1], "1=1") for key in sample_counts()}


def unique_ids(servers, label):
    """Object ids and global ids of TreesOfPortland/0 and DamageAssessment/0 unique, and the same through
    every server."""
    problems, sizes = [], {}
    seen = {}
    for server in servers:
        for service, oid, gid in ((TREES, "OBJECTID", "GlobalID"), (DAMAGE, "objectid", "globalid")):
            rows = paged_rows(server.port, service, 0, oid, f"{oid},{gid}", returnGeometry="false")
            oids = [r[oid] for r in rows]
            gids = [guid(r[gid]) for r in rows]
            total = count(server.port, service, 0, "1=1")
            sizes[service] = total
            if len(set(oids)) != len(oids) or len(oids) != total:
                problems.append(f"{service}/0 through {server.name}: {len(oids)} object ids, {len(set(oids))} distinct, count {total}")
            if None in gids or len(set(gids)) != len(gids):
                problems.append(f"{service}/0 through {server.name}: {len(gids)} global ids, {len(set(gids))} distinct, "
                                f"{gids.count(None)} missing")
            pairs = sorted(zip(oids, gids))
            if service in seen and seen[service][1] != pairs:
                problems.append(f"{service}/0: {seen[service][0]} and {server.name} show different object ids or global ids "
                                f"({len(seen[service][1])} vs {len(pairs)} rows)")
            seen.setdefault(service, (server.name, pairs))
    check(f"{label}: object ids and global ids unique and the same through both servers "
          f"({', '.join(f'{s}/0: {n}' for s, n in sizes.items())})", not problems, "; ".join(problems[:6]))


def same_through_both(servers, label):
    """Every sample layer's count, DEFAULT's rows of DamageAssessment/0 and the version list are the same
    through every server."""
    differences = []
    counts = {s.name: layer_counts(s.port) for s in servers}
    first = servers[0].name
    for server in servers[1:]:
        for key, n in counts[first].items():
            if counts[server.name][key] != n:
                differences.append(f"{key[0]}/{key[1]}: {n} through {first}, {counts[server.name][key]} through {server.name}")
    rows = {s.name: paged_rows(s.port, DAMAGE, 0, "objectid", "*") for s in servers}
    versions = {}
    for s in servers:
        infos = vm(s.port, "/versionInfos", {"token": sign_in(s.port, "admin", "sample-admin")})["versions"]
        versions[s.name] = sorted((v["versionName"], guid(v.get("versionGuid")), v.get("modifiedDate")) for v in infos)
    for server in servers[1:]:
        if rows[server.name] != rows[first]:
            a, b = rows[first], rows[server.name]
            other = [f"{x.get('objectid')}" for x, y in zip(a, b) if x != y][:5]
            differences.append(f"{DAMAGE}/0 rows: {len(a)} through {first}, {len(b)} through {server.name}, first differing "
                               f"object ids {other}")
        if versions[server.name] != versions[first]:
            differences.append(f"versions through {first} {versions[first]}, through {server.name} {versions[server.name]}"[:600])
    check(f"{label}: the same counts ({sum(counts[first].values())} features in {len(counts[first])} layers), "
          f"rows of {DAMAGE}/0 and versions through both servers", not differences, "; ".join(differences[:6]))


# --- 1. shared state -----------------------------------------------------------------------------

def shared_tokens(a, b, rng):
    problems = []
    for issuer, other in ((a, b), (b, a)):
        token = sign_in(issuer.port, "crew01", PASSWORD)
        note = f"scale-token-{issuer.name}-{uuid.uuid4().hex[:8]}"
        status, answer = raw_request(other.port, f"/arcgis/rest/services/{TREES}/FeatureServer/0/applyEdits",
                                     {"adds": json.dumps([one_tree(note, rng)]), "token": token, "f": "json"})
        results = answer.get("addResults") if isinstance(answer, dict) else None
        if status != 200 or not results or not results[0].get("success"):
            problems.append(f"applyEdits through {other.name} with a token from {issuer.name}: {brief(status, answer)}")
        else:
            seen = count(issuer.port, TREES, 0, f"Notes = '{note}'")
            if seen != 1:
                problems.append(f"the add made through {other.name} (token from {issuer.name}) is seen {seen} times through {issuer.name}")
        status, answer = raw_request(other.port, f"{VMS}/versionInfos", {"token": token, "f": "json"})
        if status != 200 or "versions" not in answer:
            problems.append(f"versionInfos through {other.name} with a token from {issuer.name}: {brief(status, answer)}")
    check("scale-out: a token issued by one server is accepted by the other (applyEdits, versionInfos; both ways)",
          not problems, "; ".join(problems))
    status, answer = raw_request(b.port, f"/arcgis/rest/services/{TREES}/FeatureServer/0/applyEdits",
                                 {"adds": json.dumps([one_tree("scale-bad-token", rng)]), "token": "not-a-token", "f": "json"})
    code = answer.get("error", {}).get("code") if isinstance(answer, dict) else None
    check("scale-out: a made-up token is refused (498)", code == 498 or status == 498, brief(status, answer))


def shared_versions_and_locks(a, b):
    token_a = sign_in(a.port, "crew01", PASSWORD)
    token_b = sign_in(b.port, "crew01", PASSWORD)
    name = f"scale_{uuid.uuid4().hex[:8]}"
    created = vm(a.port, "/create", {"versionName": name, "accessPermission": "public", "token": token_a})
    qualified = created["versionInfo"]["versionName"]
    version = guid(created["versionInfo"]["versionGuid"])
    infos = vm(b.port, "/versionInfos", {"token": token_b})["versions"]
    listed = [v["versionName"] for v in infos if guid(v.get("versionGuid")) == version]
    status, info = raw_request(b.port, f"{VMS}/versions/{version}", {"token": token_b, "f": "json"})
    in_version = None
    try:
        in_version = count(b.port, DAMAGE, 0, "1=1", gdbVersion=qualified, token=token_b)
    except ServiceFailure as error:
        in_version = str(error)
    check(f"scale-out: a version created through {a.name} is listed, described and readable through {b.name} at once",
          listed == [qualified] and status == 200 and isinstance(info, dict) and info.get("versionName") == qualified
          and in_version == count(a.port, DAMAGE, 0, "1=1"),
          f"listed {listed}; versions/{version}: {brief(status, info)}; count in the version through {b.name}: {in_version}")

    base = f"{VMS}/versions/{version}"
    s1, s2, s3 = ("{" + str(uuid.uuid4()).upper() + "}" for _ in range(3))
    steps = []

    def step(server, token, what, session, expect, **extra):
        status, answer = raw_request(server.port, f"{base}/{what}", {"sessionId": session, "token": token, "f": "json", **extra})
        ok = succeeded(status, answer) if expect == "ok" else refused(status, answer)
        steps.append((f"{what} of session {'123'[[s1, s2, s3].index(session)]} through {server.name}: expected "
                      f"{'success' if expect == 'ok' else 'a refusal'}, got {brief(status, answer)}", ok))
        return ok

    # A session reading through B keeps a session of A from editing (the exclusive lock needs the version alone).
    step(b, token_b, "startReading", s2, "ok")
    step(a, token_a, "startReading", s1, "ok")
    reader_blocks = step(a, token_a, "startEditing", s1, "refused")
    step(b, token_b, "stopReading", s2, "ok")
    # Session 1 edits through A: session 2 can neither read nor edit through B.
    step(a, token_a, "startEditing", s1, "ok")
    blocked_read = step(b, token_b, "startReading", s2, "refused")
    blocked_edit = step(b, token_b, "startEditing", s2, "refused")
    step(a, token_a, "stopEditing", s1, "ok", saveEdits="true")
    step(a, token_a, "stopReading", s1, "ok")
    step(b, token_b, "startReading", s2, "ok")
    step(b, token_b, "startEditing", s2, "ok")
    blocked_back = step(a, token_a, "startReading", s3, "refused")
    step(b, token_b, "stopEditing", s2, "ok", saveEdits="true")
    step(b, token_b, "stopReading", s2, "ok")
    for line, ok in steps:
        log(("  " if ok else "  UNEXPECTED ") + line)
    check(f"scale-out: startEditing through {a.name} blocks a second session's startReading and startEditing through {b.name}",
          blocked_read and blocked_edit, "; ".join(line for line, ok in steps[5:7] if not ok))
    check(f"scale-out: a session reading through {b.name} keeps a session of {a.name} from startEditing", reader_blocks,
          steps[2][0])
    check(f"scale-out: once released through {a.name}, the second session edits through {b.name}, which blocks a third "
          f"through {a.name}; every session step answered as expected", all(ok for _, ok in steps),
          "; ".join(line for line, ok in steps if not ok))

    # Sessions left by a step answered otherwise than expected would keep the version from being deleted.
    for server, token, session in ((a, token_a, s1), (b, token_b, s2), (a, token_a, s3)):
        if not all(ok for _, ok in steps):
            for what in ("stopEditing", "stopReading"):
                raw_request(server.port, f"{base}/{what}", {"sessionId": session, "saveEdits": "true", "token": token, "f": "json"})
    vm(a.port, "/delete", {"versionName": qualified, "token": token_a})
    infos = vm(b.port, "/versionInfos", {"token": token_b})["versions"]
    still = [v["versionName"] for v in infos if guid(v.get("versionGuid")) == version]
    check(f"scale-out: a version deleted through {a.name} is gone through {b.name}", not still, f"still listed: {still}")


def locks_die_with_their_server(victim, survivor):
    """A session locks a version through one server (startReading, startEditing), then that server is killed
    (kill -9): through the other server the version is no longer being edited, and another session locks it."""
    token_v = sign_in(victim.port, "crew01", PASSWORD)
    name = f"orphan_{uuid.uuid4().hex[:8]}"
    created = vm(victim.port, "/create", {"versionName": name, "accessPermission": "public", "token": token_v})
    qualified = created["versionInfo"]["versionName"]
    base = f"{VMS}/versions/{guid(created['versionInfo']['versionGuid'])}"
    s1, s2 = ("{" + str(uuid.uuid4()).upper() + "}" for _ in range(2))
    for what in ("startReading", "startEditing"):
        status, answer = raw_request(victim.port, f"{base}/{what}", {"sessionId": s1, "token": token_v, "f": "json"})
        if not succeeded(status, answer):
            check(f"scale-out: a session locks a version through {victim.name}", False, f"{what}: {brief(status, answer)}")
            return
    token_s = sign_in(survivor.port, "crew02", PASSWORD)
    status, before = raw_request(survivor.port, base, {"token": token_s, "f": "json"})
    victim.kill()
    # The victim's PostgreSQL session ends when the kernel closes its connection: moments after the kill.
    for _ in range(50):
        status_after, after = raw_request(survivor.port, base, {"token": token_s, "f": "json"})
        if not (isinstance(after, dict) and after.get("isBeingEdited") is True):
            break
        time.sleep(0.1)
    steps = []
    for what, extra in (("startReading", {}), ("startEditing", {}), ("stopEditing", {"saveEdits": "true"}), ("stopReading", {})):
        st, answer = raw_request(survivor.port, f"{base}/{what}", {"sessionId": s2, "token": token_s, "f": "json", **extra})
        steps.append((what, succeeded(st, answer), brief(st, answer)))
    victim.start()
    check(f"scale-out: a session's edit lock taken through {victim.name} is seen through {survivor.name}, and dies when "
          f"{victim.name} is killed (kill -9): another session then locks the version through {survivor.name}",
          isinstance(before, dict) and before.get("isBeingEdited") is True
          and isinstance(after, dict) and after.get("isBeingEdited") is False and all(ok for _, ok, _ in steps),
          f"isBeingEdited before the kill {brief(status, before)}, after {brief(status_after, after)}; "
          + "; ".join(f"{what}: {detail}" for what, ok, detail in steps if not ok))
    # Clean-up with the owner's token (tokens are shared by the servers): when the lock outlived its server, the
    # first session releases it first, so that the version can be deleted.
    for what in ("stopEditing", "stopReading"):
        raw_request(survivor.port, f"{base}/{what}", {"sessionId": s1, "saveEdits": "true", "token": token_v, "f": "json"})
    vm(survivor.port, "/delete", {"versionName": qualified, "token": token_v})


# --- 2. concurrent batches --------------------------------------------------------------------------

def concurrent_batches(args, servers, rng):
    """A batch to each server at the same moment (twice): all acknowledged, the counts through both right.
    Answers the longest batch's seconds."""
    senders = [BatchSender(s.port, sign_in(s.port, "crew01", PASSWORD), 300 + k, args.batch_size, rng, 2)
               for k, s in enumerate(servers)]
    for sender in senders:
        sender.start()
    for sender in senders:
        sender.join(timeout=600)
    problems = [f"{s.name}: error {x.error}, refused {x.refused}, acknowledged {x.acknowledged}"
                for s, x in zip(servers, senders) if len(x.acknowledged) != 2 or x.is_alive()]
    for server in servers:
        for sender in senders:
            for batch_id in sender.acknowledged:
                n = count(server.port, TREES, 0, f"Notes = '{batch_id}'")
                if n != args.batch_size:
                    problems.append(f"{batch_id} through {server.name}: {n} of {args.batch_size}")
    check(f"scale-out: batches of {args.batch_size} adds sent to both servers at once all acknowledged and present through both",
          not problems, "; ".join(problems[:6]))
    durations = [d for x in senders for d in x.durations]
    log(f"concurrent batches: {', '.join(f'{d:.2f}' for d in durations)} s")
    return max(durations) if durations else 1.0


# --- 3. crews over both servers ----------------------------------------------------------------------

def crews_over_both(args, servers, deadline):
    round_seconds = []
    for round_number in range(1, args.crew_rounds + 1):
        if time.monotonic() > deadline:
            raise Deadline(f"scale-out crews stopped after {round_number - 1} of {args.crew_rounds} rounds")
        args.sample_damage = count(servers[0].port, DAMAGE, 0, "1=1")
        took, crews = crews_round(args, servers, round_number, deadline)
        round_seconds.append(took)
        label = f"crews round {round_number} over {len(servers)} servers"
        if crews is None:
            continue
        adds = [(oid, guid(gid)) for c in crews for oid, gid in c.add_results]
        oids = [oid for oid, _ in adds]
        gids = [gid for _, gid in adds]
        check(f"{label}: object ids and global ids the crews' adds were answered unique across the crews ({len(adds)} adds)",
              len(set(oids)) == len(oids) and None not in gids and len(set(gids)) == len(gids),
              f"{len(oids)} object ids ({len(set(oids))} distinct), {len(gids)} global ids ({len(set(gids))} distinct, "
              f"{gids.count(None)} missing)")
        answered = dict(adds)
        kept = sorted(oid for c in crews for oid in c.added + c.updated_adds)
        tags = ",".join(f"'{c.tag}-add','{c.tag}-add-updated'" for c in crews)
        for server in servers:
            rows = paged_rows(server.port, DAMAGE, 0, "objectid", "objectid,globalid,notes", where=f"notes IN ({tags})",
                              returnGeometry="false")
            got = sorted(r["objectid"] for r in rows)
            wrong_gid = [f"{r['objectid']}: {r['globalid']} (answered {answered.get(r['objectid'])})" for r in rows
                         if guid(r["globalid"]) != answered.get(r["objectid"])]
            check(f"{label}, through {server.name}: every crew's kept add in DEFAULT exactly once, with the object id and "
                  f"global id its applyEdits answered ({len(rows)} of {len(kept)})",
                  got == kept and not wrong_gid,
                  f"{len(got)} rows, {len(set(got))} distinct, missing {sorted(set(kept) - set(got))[:10]}, extra "
                  f"{sorted(set(got) - set(kept))[:10]}, duplicated {sorted({o for o in got if got.count(o) > 1})[:10]}; "
                  f"global ids differing {wrong_gid[:5]}")
        same_through_both(servers, label)
    log(f"scale-out crews rounds: {', '.join(f'{t:.1f}' for t in round_seconds)} s")


# --- 4. kill -9 of one server during a batch -------------------------------------------------------

class Prober(threading.Thread):
    """Queries and single adds sent back to back to one server; records every answer."""

    def __init__(self, port, token, tag, rng):
        super().__init__(daemon=True)
        self.port, self.token, self.tag, self.rng = port, token, tag, rng
        self.stop_flag = threading.Event()
        self.results = []   # (monotonic start, kind, ok, seconds, detail)
        self.added = []     # notes of acknowledged adds

    def run(self):
        number = 0
        while not self.stop_flag.is_set() and number < 100000:
            number += 1
            began = time.monotonic()
            if number % 2:
                kind = "query"
                try:
                    status, answer = raw_request(self.port, f"/arcgis/rest/services/{TREES}/FeatureServer/0/query",
                                                 {"where": "1=1", "returnCountOnly": "true", "f": "json"}, method="GET")
                    ok = status == 200 and isinstance(answer, dict) and isinstance(answer.get("count"), int)
                    detail = brief(status, answer)
                except Exception as error:  # noqa: BLE001 - recorded as a failed request
                    ok, detail = False, f"{type(error).__name__}: {error}"
            else:
                kind = "edit"
                note = f"{self.tag}-{number}"
                try:
                    status, answer = raw_request(self.port, f"/arcgis/rest/services/{TREES}/FeatureServer/0/applyEdits",
                                                 {"adds": json.dumps([one_tree(note, self.rng)]), "token": self.token, "f": "json"})
                    results = answer.get("addResults") if isinstance(answer, dict) else None
                    ok = status == 200 and bool(results) and results[0].get("success") is True
                    detail = brief(status, answer)
                    if ok:
                        self.added.append(note)
                except Exception as error:  # noqa: BLE001
                    ok, detail = False, f"{type(error).__name__}: {error}"
            self.results.append((began, kind, ok, time.monotonic() - began, detail))
            time.sleep(0.01)


def kill_one_during_batches(args, servers, rng, batch_seconds, deadline):
    rounds = args.scale_kills
    log(f"scale-out: {rounds} kill -9 of one server during an applyEdits batch of {args.batch_size} adds sent to it")
    partial, lost, refused_batches, probe_failures, probe_lost, differing = [], [], [], [], [], []
    sent_total, present_total, in_flight, after_kill = 0, 0, 0, {"query": 0, "edit": 0}
    slowest_after = 0.0
    for round_number in range(1, rounds + 1):
        if time.monotonic() > deadline:
            raise Deadline(f"scale-out kills stopped after {round_number - 1} of {rounds}")
        victim, survivor = (servers[1], servers[0]) if round_number % 2 else (servers[0], servers[1])
        prober = Prober(survivor.port, sign_in(survivor.port, "crew02", PASSWORD), f"probe-k{round_number:02d}", rng)
        sender = BatchSender(victim.port, sign_in(victim.port, "crew01", PASSWORD), 400 + round_number, args.batch_size, rng, limit=10)
        prober.start()
        sender.start()
        delay = rng.uniform(0.0, 2.0 * batch_seconds)
        time.sleep(delay)
        killed_at = time.monotonic()
        victim.kill()
        sender.stop_flag.set()
        sender.join(timeout=150)
        # The survivor keeps being sent queries and adds for a while after the kill: at least 3 s and 5 edits.
        for _ in range(600):
            edits_after = sum(1 for r in prober.results if r[0] > killed_at and r[1] == "edit")
            if time.monotonic() - killed_at > 3.0 and edits_after >= 5:
                break
            time.sleep(0.1)
        prober.stop_flag.set()
        prober.join(timeout=150)
        if sender.is_alive() or prober.is_alive():
            check(f"scale-out kill {round_number}: the sender and the prober end", False, "still blocked after 150 s")
            return
        unanswered = [x for x in sender.sent if x not in sender.acknowledged and x not in dict(sender.refused)]
        in_flight += len(unanswered)
        refused_batches.extend(sender.refused)
        present = 0
        for batch_id in sender.sent:
            n = count(survivor.port, TREES, 0, f"Notes = '{batch_id}'")
            present += n == args.batch_size
            if n not in (0, args.batch_size):
                partial.append(f"{batch_id} (sent to {victim.name}, counted through {survivor.name}): {n} of {args.batch_size}")
            if batch_id in sender.acknowledged and n != args.batch_size:
                lost.append(f"{batch_id} (acknowledged by {victim.name}): {n} of {args.batch_size} through {survivor.name}")
        sent_total += len(sender.sent)
        present_total += present
        for began, kind, ok, seconds, detail in prober.results:
            if not ok:
                probe_failures.append(f"{kind} through {survivor.name} {began - killed_at:+.2f} s from the kill: {detail}")
            if began > killed_at:
                after_kill[kind] += 1
                slowest_after = max(slowest_after, seconds)
        if prober.added:
            notes = ",".join(f"'{n}'" for n in prober.added)
            seen = request(survivor.port, f"/arcgis/rest/services/{TREES}/FeatureServer/0/query",
                           {"where": f"Notes IN ({notes})", "returnCountOnly": "true", "f": "json"})["count"]
            if seen != len(prober.added):
                probe_lost.append(f"round {round_number}: {seen} of the {len(prober.added)} acknowledged adds through {survivor.name}")
        took = victim.start()
        # After the restart: both servers show the same.
        for batch_id in sender.sent:
            ns = {s.name: count(s.port, TREES, 0, f"Notes = '{batch_id}'") for s in servers}
            if len(set(ns.values())) != 1:
                differing.append(f"{batch_id}: {ns}")
        totals = {s.name: count(s.port, TREES, 0, "1=1") for s in servers}
        if len(set(totals.values())) != 1:
            differing.append(f"round {round_number}: {TREES}/0 counts {totals}")
        queries_during = sum(1 for r in prober.results if r[0] > killed_at)
        log(f"kill {round_number} of {victim.name} at {delay:.2f} s: batches sent {len(sender.sent)}, acknowledged "
            f"{len(sender.acknowledged)}, in flight {len(unanswered)}, present {present}; {survivor.name} answered "
            f"{len(prober.results)} requests ({queries_during} after the kill); {victim.name} restarted in {took:.1f} s")
    check(f"scale-out: {rounds} kill -9 of one server, each with a batch in flight ({in_flight} in flight)", in_flight >= rounds,
          f"only {in_flight} batches in flight over {rounds} kills")
    check(f"scale-out: every batch sent to the killed server all or nothing, counted through the other "
          f"({sent_total} batches, {present_total} present)", not partial, "; ".join(partial[:6]))
    check("scale-out: every batch the killed server acknowledged is present", not lost, "; ".join(lost[:6]))
    check("scale-out: no batch refused", not refused_batches, "; ".join(f"{b}: {a}" for b, a in refused_batches[:3]))
    check(f"scale-out: the other server answered every query and edit during and after each kill ({after_kill['query']} "
          f"queries and {after_kill['edit']} adds after the kills, slowest {slowest_after * 1000:.0f} ms)",
          not probe_failures and after_kill["edit"] >= 5 * rounds, "; ".join(probe_failures[:6]) or f"{after_kill}")
    check("scale-out: every add the other server acknowledged is present", not probe_lost, "; ".join(probe_lost[:6]))
    check("scale-out: after each restart both servers show the same batches and counts", not differing, "; ".join(differing[:6]))


# --- 5. two first starts at once ------------------------------------------------------------------

def simultaneous_first_start(args, logs, deadline):
    """Two servers started at the same moment on a new database, --start-kills times (each a new database):
    both come up, and through both every sample layer holds the sample's features once."""
    rounds = args.start_kills
    expected = sample_counts()
    problems = []
    for round_number in range(1, rounds + 1):
        if time.monotonic() > deadline:
            raise Deadline(f"simultaneous first starts stopped after {round_number - 1} of {rounds}")
        database = fresh_database(args, "scale-out-first")
        servers = [Server(args.bin, database, logs, f"scale-first-{round_number}-{x}") for x in "ab"]
        errors = {}

        def start(server):
            try:
                server.start()
            except Exception as error:  # noqa: BLE001 - reported below
                errors[server.name] = f"{type(error).__name__}: {error}"

        try:
            threads = [threading.Thread(target=start, args=(s,), daemon=True) for s in servers]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(timeout=240)
            for server in servers:
                if server.name in errors:
                    err = os.path.join(logs, f"{server.name}-1.err")
                    with open(err, errors="replace") as file:
                        last = [line.strip() for line in file if line.strip()][-1:] or ["(no output)"]
                    problems.append(f"round {round_number}, {server.name}: {errors[server.name]}: {last[0]}")
                elif server.port:
                    counts = layer_counts(server.port)
                    if counts != expected:
                        problems.append(f"round {round_number}, {server.name}: {counts} (expected {expected})")
        finally:
            for server in servers:
                server.stop()
    check(f"scale-out: two servers started at the same moment on a new database ({rounds} times) both come up, every "
          f"sample layer loaded once", not problems, "; ".join(problems)[:2000])


# --- the scenario -----------------------------------------------------------------------------------

def scale_out(args, logs, deadline):
    if not getattr(args, "postgres", None):
        raise ServiceFailure("scale-out needs --postgres")
    database = fresh_database(args, "scale-out")
    users = os.path.join(args.work, "scale-out-users.json")
    write_crew_users(users, args.crews)
    servers = [Server(args.bin, database, logs, f"scale-{x}", users=users) for x in "ab"]
    a, b = servers
    rng = random.Random(args.seed + 7)
    log(f"scale-out: two servers on {database}")
    try:
        took_a = a.start()
        took_b = b.start()
        log(f"{a.name} up on port {a.port} in {took_a:.1f} s (first start), {b.name} on port {b.port} in {took_b:.1f} s")
        expected = sample_counts()
        got = {s.name: layer_counts(s.port) for s in servers}
        check("scale-out: two servers on one database, every sample layer whole (loaded once) through both",
              all(c == expected for c in got.values()), f"{got} (expected {expected})")
        parts = (("tokens", lambda: shared_tokens(a, b, rng)),
                 ("versions and locks", lambda: shared_versions_and_locks(a, b)))
        for name, part in parts:
            try:
                part()
            except Deadline:
                raise
            except Exception as error:  # noqa: BLE001 - a failed part, then the next
                check(f"scale-out: {name} ran to the end", False, f"{type(error).__name__}: {error}")
        batch_seconds = 1.0
        try:
            batch_seconds = concurrent_batches(args, servers, rng)
            unique_ids(servers, "scale-out: after concurrent batches")
        except Exception as error:  # noqa: BLE001
            check("scale-out: concurrent batches ran to the end", False, f"{type(error).__name__}: {error}")
        try:
            crews_over_both(args, servers, deadline)
        except Deadline:
            raise
        except Exception as error:  # noqa: BLE001
            check("scale-out: crews over both servers ran to the end", False, f"{type(error).__name__}: {error}")
        for server in servers:
            if not server.alive():
                server.start()
        kill_one_during_batches(args, servers, rng, batch_seconds, deadline)
        try:
            locks_die_with_their_server(b, a)
        except Exception as error:  # noqa: BLE001
            check("scale-out: the locks of a killed server ran to the end", False, f"{type(error).__name__}: {error}")
        for server in servers:
            if not server.alive():
                server.start()
        unique_ids(servers, "scale-out: after the kills")
        same_through_both(servers, "scale-out: at the end")
    finally:
        for server in servers:
            server.stop()
    simultaneous_first_start(args, logs, deadline)
