"""What every reliability scenario shares: checks and their counts, HTTP requests to the service, a
`maprules serve` process to start, kill and restart, the sample services and fresh databases (SQLite
files, or with --postgres new databases on that PostgreSQL server)."""
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

def send(port, path, params, timeout=60.0, method="POST"):
    """Sends a form-encoded request; answers (HTTP status, the body's bytes)."""
    body = urllib.parse.urlencode(params)
    connection = http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
        if method == "POST":
            connection.request("POST", path, body=body, headers={"Content-Type": "application/x-www-form-urlencoded"})
        else:
            connection.request("GET", f"{path}?{body}")
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def request(port, path, params, timeout=60.0, method="POST"):
    """Sends a form-encoded request and answers the decoded JSON body (an HTTP error raises)."""
    status, data = send(port, path, params, timeout=timeout, method=method)
    if status != 200:
        raise ServiceFailure(f"HTTP {status} on {path}: {data[:300]!r}")
    return json.loads(data)


def raw_request(port, path, params, method="POST", timeout=60.0):
    """(HTTP status, decoded JSON or the text) without raising on a non-200 answer."""
    status, data = send(port, path, params, timeout=timeout, method=method)
    try:
        return status, json.loads(data)
    except ValueError:
        return status, data[:300].decode(errors="replace")


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

def is_postgres(database):
    return database.startswith(("postgres://", "postgresql://"))


# --postgres-connections N for every `serve --postgres` (None: the server's default).
POSTGRES_CONNECTIONS = None


def storage_options(database):
    """The `serve` options that store the service in `database`: a SQLite file (or :memory:) or a
    PostgreSQL URL."""
    if not is_postgres(database):
        return ["--database", database]
    options = ["--postgres", database]
    if POSTGRES_CONNECTIONS is not None:
        options += ["--postgres-connections", str(POSTGRES_CONNECTIONS)]
    return options


class Server:
    """One `maprules serve --port 0` process on `database` (a SQLite file, or a PostgreSQL URL: restarted on
    the same URL it finds the same database); its output goes to files under the log folder."""

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
        command = [self.binary, "serve", "--port", "0", *storage_options(self.database)]
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


# --- the samples and databases -------------------------------------------------------------------

TREES = "TreesOfPortland"


DAMAGE = "DamageAssessment"


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


# The PostgreSQL databases made by fresh_database in this run (dropped at the end of a run that passed).
created_databases = []


def database_url(url, database):
    """`url` (postgres://user@host:port/db?options) with another database name."""
    parts = urllib.parse.urlsplit(url)
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc, "/" + database, parts.query, parts.fragment))


def database_name(url):
    return urllib.parse.urlsplit(url).path.lstrip("/")


def fresh_database(args, name):
    """A database no one used yet: with --postgres a new database on that server, named after the scenario
    with a random suffix (r_crash_<hex>; the server creates it on first start); otherwise the file `name`
    under --work, deleted first."""
    if getattr(args, "postgres", None):
        stem = re.sub(r"[^a-z0-9]+", "_", os.path.splitext(name)[0].lower()).strip("_")[:30]
        url = database_url(args.postgres, f"r_{stem}_{uuid.uuid4().hex[:10]}")
        created_databases.append(url)
        return url
    database = os.path.join(args.work, name)
    for suffix in ("", "-wal", "-shm", "-journal"):
        if os.path.exists(database + suffix):
            os.remove(database + suffix)
    return database


def drop_databases(admin_url, urls):
    """Drops the databases of `urls` with psql, connected to the database of `admin_url`; answers the
    names it could not drop (psql missing, or an error)."""
    psql = shutil.which("psql")
    names = [database_name(url) for url in urls]
    if not psql:
        return names
    left = []
    for name in names:
        result = subprocess.run([psql, admin_url, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-c",
                                 f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=120)
        if result.returncode != 0:
            left.append(f"{name} ({result.stderr.decode(errors='replace').strip()[:200]})")
    return left


# --- version management of DamageAssessment --------------------------------------------------------

VMS = f"/arcgis/rest/services/{DAMAGE}/VersionManagementServer"
RECONCILE_REQUIRED = -2147217137


def vm(port, path, params, timeout=60):
    params = dict(params)
    params.setdefault("f", "json")
    answer = request(port, f"{VMS}{path}", params, timeout=timeout)
    if answer.get("success") is False or "error" in answer and answer.get("success") is not True:
        raise ServiceFailure(json.dumps(answer)[:500])
    return answer
