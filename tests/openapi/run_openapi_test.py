#!/usr/bin/env python3
"""The OpenAPI document through a real validator, as a REST client's tooling would read it.

usage: run_openapi_test.py SYNDIC_MCP NODE VALIDATE_MJS

`syndic-mcp openapi` (the default base URL, then a deeper one with a module subset) is piped to
validate.mjs, which must accept it. Then the validator must refuse broken copies of the document,
so a validator that has stopped checking (a package update, a wrong option) fails this test
instead of passing everything.
"""
import copy
import json
import subprocess
import sys


def validate(node, script, text):
    r = subprocess.run([node, script], input=text, capture_output=True, text=True, timeout=60)
    return r.returncode, (r.stdout + r.stderr).strip()


def main():
    exe, node, script = sys.argv[1:4]
    passed = failed = 0

    def check(ok, what, output=""):
        nonlocal passed, failed
        if ok:
            passed += 1
            print(f"ok: {what}")
        else:
            failed += 1
            print(f"FAILED: {what}\n{output}")

    documents = {}
    for args in ([], ["--base-url", "https://example.org/syndic/api", "--modules", "units,meetings"]):
        r = subprocess.run([exe, "openapi", *args], capture_output=True, text=True, timeout=60)
        what = " ".join(["syndic-mcp openapi", *args])
        if r.returncode != 0:
            check(False, what + " runs", r.stderr)
            continue
        code, output = validate(node, script, r.stdout)
        check(code == 0, what + " is a valid OpenAPI 3.1 document", output)
        documents[what] = json.loads(r.stdout)

    doc = documents.get("syndic-mcp openapi")
    if doc is None:
        print(f"{passed} passed, {failed + 1} failed")
        return 1

    def operation(d, method, path):
        return d["paths"][path][method]

    def optional_path_parameter(d):
        operation(d, "patch", "/api/co-owners/{id}")["parameters"][0]["required"] = False

    def undeclared_path_parameter(d):
        del operation(d, "patch", "/api/co-owners/{id}")["parameters"]

    def duplicate_operation_id(d):
        operation(d, "get", "/api/units")["operationId"] = "list_co_owners"

    def response_without_description(d):
        del operation(d, "get", "/api/units")["responses"]["200"]["description"]

    def unknown_status(d):
        operation(d, "get", "/api/units")["responses"]["600"] = {"description": "no such status"}

    def dangling_reference(d):
        operation(d, "get", "/api/units")["responses"]["400"] = {"$ref": "#/components/responses/NoSuchResponse"}

    def openapi_30_nullable(d):
        operation(d, "get", "/api/co-owners")["parameters"][0]["schema"]["nullable"] = True

    def draft04_exclusive_minimum(d):
        operation(d, "get", "/api/units")["parameters"][0]["schema"]["exclusiveMinimum"] = True

    def tuple_items(d):
        error = d["components"]["schemas"]["Error"]["properties"]["error"]
        error["properties"]["errors"]["items"] = [{"type": "string"}]

    def misspelt_keyword(d):
        operation(d, "post", "/api/units")["requestBody"]["content"]["application/json"]["schema"]["maxProperty"] = 3

    def bearer_without_scheme(d):
        del d["components"]["securitySchemes"]["bearer"]["scheme"]

    def openapi_30(d):
        d["openapi"] = "3.0.3"

    for breakage in (optional_path_parameter, undeclared_path_parameter, duplicate_operation_id,
                     response_without_description, unknown_status, dangling_reference, openapi_30_nullable,
                     draft04_exclusive_minimum, tuple_items, misspelt_keyword, bearer_without_scheme, openapi_30):
        broken = copy.deepcopy(doc)
        breakage(broken)
        code, output = validate(node, script, json.dumps(broken))
        check(code == 1 and "invalid" in output, f"the validator refuses a document with {breakage.__name__.replace('_', ' ')}",
              output)

    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
