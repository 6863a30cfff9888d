#!/usr/bin/env python3
"""What bench/scale measures on a grown database, as shell assignments.

Usage: bench/scale-targets.py DATABASE_URL BASE_URL ENROL_BIN

Signs in a new owner (made by `enrol staff add`, set up through the API
with a TOTP code as an authenticator app makes it) and the student with the
most bookings (given the demo student's password), and picks from the
database what staff look for: a common surname, an email, a reference, a
course, a busy day and its fullest session, the online course most
bought, a year of payments.
"""

import base64
import hashlib
import hmac
import json
import shlex
import sqlite3
import struct
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from datetime import date, timedelta

DEMO_STUDENT = "amelia@student.example"
DEMO_PASSWORD = "training day 2027"
STAFF_PASSWORD = "a long benchmark password"


def query(url, sql):
    """The rows of `sql` on the database at `url`, as tuples of text."""
    if url.startswith("sqlite://"):
        db = sqlite3.connect(url.removeprefix("sqlite://").split("?")[0])
        rows = [tuple("" if v is None else str(v) for v in row) for row in db.execute(sql)]
        db.commit()
        db.close()
        return rows
    out = subprocess.run(["psql", "-Atq", "-F", "\t", url, "-c", sql], check=True, capture_output=True, text=True).stdout
    return [tuple(line.split("\t")) for line in out.splitlines() if line]


def call(base, method, path, body=None, cookie=None):
    """(status, headers, parsed JSON body) of a request to the server."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if cookie:
        request.add_header("Cookie", cookie)
    try:
        with urllib.request.urlopen(request) as answer:
            return answer.status, answer.headers, json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as refused:
        return refused.code, refused.headers, refused.read().decode()


def cookie_of(headers, name):
    for value in headers.get_all("Set-Cookie") or []:
        if value.startswith(name + "="):
            return value.split(";")[0]
    sys.exit(f"scale: no {name} cookie was set")


def totp(secret, at):
    """RFC 6238: the six digits an authenticator app shows for `secret` at `at`."""
    key = base64.b32decode(secret.upper() + "=" * (-len(secret) % 8))
    digest = hmac.new(key, struct.pack(">Q", int(at) // 30), hashlib.sha1).digest()
    offset = digest[-1] & 0xF
    return f"{(struct.unpack('>I', digest[offset:offset + 4])[0] & 0x7FFFFFFF) % 1_000_000:06d}"


def staff_cookie(url, base, enrol):
    email = f"bench-owner-{int(time.time())}@college.test"
    made = subprocess.run([enrol, "staff", "add", "--owner", email, "--name", "Bench Owner"], check=True, capture_output=True, text=True,
                          env={"DATABASE_URL": url, "RUST_LOG": "error", "PATH": "/usr/bin:/bin"})
    token = urllib.parse.parse_qs(urllib.parse.urlparse(made.stdout.strip().splitlines()[-1]).query)["token"][0]
    status, _, invitation = call(base, "GET", f"/api/admin/invitations/{token}")
    if status != 200:
        sys.exit(f"scale: the set-up link did not open ({status}: {invitation})")
    status, headers, accepted = call(base, "POST", f"/api/admin/invitations/{token}",
                                     {"password": STAFF_PASSWORD, "code": totp(invitation["secret"], time.time())})
    if status != 200:
        sys.exit(f"scale: set-up was refused ({status}: {accepted})")
    return cookie_of(headers, "enrol_staff")


def main():
    url, base, enrol = sys.argv[1:4]
    found = {"staff": staff_cookie(url, base, enrol)}

    busiest = query(url, "select u.id, u.email, count(*) from user_account u join enrollment e on e.user_id = u.id "
                         "group by u.id, u.email order by count(*) desc, u.id limit 1")
    if not busiest:
        sys.exit("scale: the database has no student with bookings; was it grown?")
    student_id, email, bookings = busiest[0]
    query(url, f"update user_account set password_hash = (select password_hash from user_account where email = '{DEMO_STUDENT}'), "
               f"email_verified_at = coalesce(email_verified_at, created_at) where id = '{student_id}'")
    status, headers, answer = call(base, "POST", "/api/auth/sign-in", {"username": email, "password": DEMO_PASSWORD})
    if status != 200:
        sys.exit(f"scale: the busiest student could not sign in ({status}: {answer})")
    found.update(student=cookie_of(headers, "enrol_session"), student_bookings=bookings)

    surname = query(url, "select family_name from enrollment group by family_name order by count(*) desc limit 1")[0][0]
    order, reference = query(url, "select e.id, e.reference from enrollment e where exists (select 1 from payment p where p.enrollment_id = e.id) "
                                  "order by e.created_at desc limit 1")[0]
    session, day, course = query(url, "select s.id, s.date, e.course_id from session s join event e on e.id = s.event_id "
                                      "order by s.registrations desc, s.date desc limit 1")[0]
    online_course = query(url, "select course_id from online_registration group by course_id order by count(*) desc limit 1")[0][0]
    last_year = date.today() - timedelta(days=365)
    found.update(surname=surname, online_course=online_course, email=email, order=order, reference=reference, session=session, day=day, course=course,
                 year_from=last_year.isoformat(), year_to=date.today().isoformat())
    # Deep pages, as their addresses carry their places: the course's
    # bookings after its 1,000th newest, the sessions after the 500th from
    # today (in a shorter history, after the last there is).
    made = "created_at" if url.startswith("sqlite://") else "to_json(created_at) #>> '{}'"
    course_bookings = f"from enrollment where id in (select enrollment_id from enrollment_line where course_id = '{course}')"
    sessions_ahead = f"from session where date >= '{date.today().isoformat()}'"
    at, order_id = query(url, f"select {made}, id {course_bookings} order by created_at desc, id desc limit 1 "
                              f"offset {deep(url, course_bookings, 999)}")[0]
    start, session_id = query(url, f"select start_at, id {sessions_ahead} order by date, start_at, id limit 1 "
                                   f"offset {deep(url, sessions_ahead, 499)}")[0]
    found.update(course_deep=urllib.parse.quote(f"{at}_{order_id}", safe=""),
                 sessions_deep=urllib.parse.quote(f"{start.replace(' ', 'T')}_{session_id}", safe=""))
    for name, value in found.items():
        print(f"{name}={shlex.quote(str(value))}")


def deep(url, rows, n):
    """The offset of the row after the `n` first of `rows` (a `from …`
    clause), or of its last row when it has no more than `n`."""
    return min(n, int(query(url, f"select count(*) {rows}")[0][0]) - 1)


if __name__ == "__main__":
    main()
