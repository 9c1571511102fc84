"""A partner's usual day with Trackline in Python, with `requests` only (no Trackline library).

The same steps as partner-flow.ts: create a customer and its source, list the sources, ask the
number replacement service which number to show a visitor (the body signed with HMAC-SHA1), read a
page of call records, and verify a webhook delivery (docs/webhooks.md). Each step is a function;
run one from the command line, it prints its result as JSON:

    python3 partner_flow.py setup "Kari Nordmann AS" 100 "22 33 44 55"
    python3 partner_flow.py show 100 "22 33 44 55" https://www.example.no/ad/1 visitor-1
    python3 partner_flow.py cdrs <customer_id> 2026-03-02 2026-03-03
    python3 partner_flow.py verify < delivery.json   # {"headers": {...}, "body": "<raw body>"}

Settings come from the environment: TRACKLINE_MANAGEMENT_URL (with /v1), TRACKLINE_USERNAME,
TRACKLINE_PASSWORD, TRACKLINE_REPLACEMENT_URL (…/dynamic-numbers), TRACKLINE_ADV_ID,
TRACKLINE_SIGNING_SECRET, TRACKLINE_WEBHOOK_SECRET (whsec_…), and TRACKLINE_INSECURE=1 for a
development server with a self-signed certificate only.
"""

import base64
import hashlib
import hmac
import json
import os
import sys
import time

import requests
from requests.auth import HTTPDigestAuth


def management():
    """A session that answers the server's digest challenge and reuses its nonce."""
    session = requests.Session()
    session.auth = HTTPDigestAuth(os.environ["TRACKLINE_USERNAME"], os.environ["TRACKLINE_PASSWORD"])
    session.headers["Accept"] = "application/json"
    if insecure():
        requests.packages.urllib3.disable_warnings()
    return session


def insecure():
    return os.environ.get("TRACKLINE_INSECURE") == "1"


def api(session, method, path, **kwargs):
    """One management call; an error status raises with the server's message."""
    # verify per request: a session's own setting loses to REQUESTS_CA_BUNDLE in the environment.
    url = os.environ["TRACKLINE_MANAGEMENT_URL"] + path
    response = session.request(method, url, timeout=30, verify=not insecure(), **kwargs)
    if response.status_code >= 400:
        raise RuntimeError(f"{method} {path}: {response.status_code} {response.json()['error']['message']}")
    return response.json()


def set_up_customer(session, name, custnr, phonenr):
    """Creates the customer and one source for its ad, then lists the customer's sources."""
    customer = api(session, "POST", "/customers", json={"name": name, "custnr": custnr})["customers"][0]
    customer_id = customer["customer_id"]
    api(session, "POST", "/sources", json={"customer_id": customer_id, "name": "Main ad", "phonenr": phonenr})
    sources = api(session, "GET", "/sources", params={"customer_id": customer_id})["sources"]
    return {"customer_id": customer_id, "sources": sources}


def number_to_show(custnr, phonenr, page_url, visitor_id, session_id=""):
    """The replacement's number for this visitor, or the page's own on a timeout or a refusal."""
    body = json.dumps(
        {
            "advId": os.environ["TRACKLINE_ADV_ID"],
            "fullUrl": page_url,
            "trackingId": visitor_id,
            "numbers": phonenr,
            "type": "web",
            "fullReferrer": "",
            "parameters": {"custnr": custnr},
            "userAgent": "Mozilla/5.0",
            "requestIpAddress": "203.0.113.0",
            "sessionId": session_id,
        }
    ).encode("utf-8")
    # The signature covers exactly the bytes sent: sign the encoded body, then send that body.
    sign = hmac.new(os.environ["TRACKLINE_SIGNING_SECRET"].encode("utf-8"), body, hashlib.sha1).hexdigest()
    try:
        response = requests.post(
            os.environ["TRACKLINE_REPLACEMENT_URL"],
            data=body,
            headers={"Content-Type": "application/json", "X-SIGN": sign, "X-HTTP-STATUSES": "1"},
            timeout=1.5,
        )
        answer = response.json()
        if response.status_code != 200 or answer.get("success") is not True:
            return {"number": phonenr, "session_id": session_id or None, "error": answer.get("error")}
        return {"number": answer["numbers"][0]["replace_with"]["local"], "session_id": answer["sessionId"]}
    except requests.RequestException:
        return {"number": phonenr, "session_id": session_id or None, "error": "no answer"}


def call_records(session, customer_id, from_date, to_date, page=0):
    """One page (0 first) of the customer's call records, from_date inclusive, to_date exclusive."""
    params = {"customer_id": customer_id, "from_date": from_date, "to_date": to_date, "page": page, "pagesize": 100}
    return api(session, "GET", "/statistics/cdrs", params=params)


class WebhookRefused(Exception):
    pass


def verify_webhook(secret, headers, raw_body, tolerance_seconds=300, now=None):
    """The event of a delivery whose signature and timestamp hold; raises WebhookRefused otherwise.

    raw_body is the body exactly as received (bytes): parsed and serialised again it is not what
    was signed.
    """
    headers = {name.lower(): value for name, value in headers.items()}
    try:
        message_id = headers["webhook-id"]
        timestamp = headers["webhook-timestamp"]
        signatures = headers["webhook-signature"]
    except KeyError as missing:
        raise WebhookRefused(f"missing header {missing.args[0]}") from None
    if not timestamp.isdigit():
        raise WebhookRefused("webhook-timestamp is not seconds since the epoch")
    key = base64.b64decode(secret.removeprefix("whsec_"))
    signed = message_id.encode("utf-8") + b"." + timestamp.encode("ascii") + b"." + raw_body
    expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode("ascii")
    # Several signatures may come, space-separated (during a secret rotation); compare each in constant time.
    matched = False
    for candidate in signatures.split(" "):
        version, _, value = candidate.partition(",")
        if version == "v1" and hmac.compare_digest(value, expected):
            matched = True
    if not matched:
        raise WebhookRefused("no webhook-signature matches the body and the secret")
    off_by = abs(int(timestamp) - int(time.time() if now is None else now))
    if off_by > tolerance_seconds:
        raise WebhookRefused(f"webhook-timestamp is {off_by} s off, beyond {tolerance_seconds} s")
    return json.loads(raw_body)


def main(argv):
    step = argv[1]
    if step == "setup":
        result = set_up_customer(management(), argv[2], argv[3], argv[4])
    elif step == "show":
        result = number_to_show(argv[2], argv[3], argv[4], argv[5], argv[6] if len(argv) > 6 else "")
    elif step == "cdrs":
        result = call_records(management(), argv[2], argv[3], argv[4])
    elif step == "verify":
        delivery = json.load(sys.stdin)
        try:
            result = verify_webhook(
                os.environ["TRACKLINE_WEBHOOK_SECRET"], delivery["headers"], delivery["body"].encode("utf-8")
            )
        except WebhookRefused as refused:
            result = {"refused": str(refused)}
    else:
        raise SystemExit(f"unknown step {step}: setup, show, cdrs or verify")
    print(json.dumps(result, ensure_ascii=False))


if __name__ == "__main__":
    main(sys.argv)
