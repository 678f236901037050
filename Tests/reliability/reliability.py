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

With --postgres URL (postgres://user@host:port/db) every scenario's fresh database is a new database on
that PostgreSQL server (r_<scenario>_<hex>, created by the server on its first start) and the servers run
`serve --postgres URL`; a restart on the same URL finds the same database. The scenario scale-out then
also runs (scale_out.py): two servers on ONE database, the crews spread over both, a kill -9 of one of them
during a batch while the other keeps working, shared tokens, versions and locks. The databases are dropped
at the end of a run that passed (psql), kept otherwise.

Every request has a timeout, every loop a bound in count, and the whole run a deadline (--deadline
seconds). Prints `PASS name` / `FAIL name: why` per check and `N passed, N failed` last; exits 1 on
any failure.
"""
import argparse
import os
import re
import shutil
import sys
import time

import harness
from harness import Deadline, check, log
from crash_scenarios import crash_during_first_start, crash_during_post, crash_safety, graceful_stop_during_batches
from crews import concurrent_crews
from scale_out import scale_out


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
                elif any(word in line for word in ("Fatal error", "Crash", "crashed", "Segmentation", "Assertion failed")):
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
    parser.add_argument("--only", choices=["crash", "first-start", "post", "graceful", "crews", "scale-out"])
    parser.add_argument("--postgres", metavar="URL",
                        help="run on this PostgreSQL server (postgres://user@host:port/db): a new database per scenario; adds scale-out")
    parser.add_argument("--postgres-connections", type=int, help="--postgres-connections of every server (default: the server's)")
    parser.add_argument("--scale-kills", type=int, help="scale-out: kill -9 of one of two servers during a batch (ci 3, full 10)")
    parser.add_argument("--keep-databases", action="store_true", help="with --postgres: do not drop the run's databases")
    parser.add_argument("--seed", type=int, default=int(time.time()))
    parser.add_argument("--deadline", type=float, help="seconds for the whole run (ci 900, full 3600; twice that with --postgres)")
    parser.add_argument("--work", default=".build-reliability", help="database files and logs")
    args = parser.parse_args()
    full = args.size == "full"
    args.batch_size = args.batch_size or (2000 if full else 1000)
    args.crew_rounds = args.crew_rounds or (10 if full else 3)
    args.post_kills = args.post_kills if args.post_kills is not None else (20 if full else 5)
    args.crew_kills = args.crew_kills if args.crew_kills is not None else (10 if full else 3)
    args.scale_kills = args.scale_kills if args.scale_kills is not None else (10 if full else 3)
    # PostgreSQL runs one more scenario (scale-out) and each step goes over the network to the database.
    args.deadline = args.deadline or (3600 if full else 900) * (2 if args.postgres else 1)
    if args.only == "scale-out" and not args.postgres:
        parser.error("--only scale-out needs --postgres")
    harness.POSTGRES_CONNECTIONS = args.postgres_connections
    if args.crews < 2:
        parser.error("--crews must be at least 2 (shared features need two crews)")
    if args.crew_adds < 3:
        parser.error("--crew-adds must be at least 3")
    logs = os.path.join(args.work, "logs")
    shutil.rmtree(logs, ignore_errors=True)
    os.makedirs(logs, exist_ok=True)
    deadline = time.monotonic() + args.deadline
    log(f"seed {args.seed} (repeat with --seed {args.seed}); logs in {logs}")
    if args.postgres:
        log(f"PostgreSQL: {args.postgres} (a new database per scenario)")

    scenarios = (("crash", crash_safety), ("first-start", crash_during_first_start), ("post", crash_during_post),
                 ("graceful", graceful_stop_during_batches), ("crews", concurrent_crews))
    if args.postgres:
        scenarios += (("scale-out", scale_out),)
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
    if args.postgres and harness.created_databases:
        names = [harness.database_name(url) for url in harness.created_databases]
        if harness.failed or args.keep_databases:
            log(f"databases kept on {args.postgres}: {', '.join(names)}")
        else:
            left = harness.drop_databases(harness.database_url(args.postgres, "postgres"), harness.created_databases)
            log(f"dropped {len(names) - len(left)} of the run's {len(names)} databases" + (f"; not dropped: {', '.join(left)}" if left else ""))
    print(f"{harness.passed} passed, {harness.failed} failed", flush=True)
    sys.exit(1 if harness.failed else 0)


if __name__ == "__main__":
    main()
