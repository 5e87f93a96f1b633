// What the interop tests (tests/interop/interop*.mjs) share: the harness (test, finish, the overall
// time limit), a stdio transport that records both directions, the call helpers, and the set-up
// every file starts from: a demo database, its admin key and the main SDK client connected to
// `syndic-mcp serve` with that key. Importing it runs that set-up (two checks).

import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
    EmptyResultSchema, LATEST_PROTOCOL_VERSION, McpError, SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';

export const OVERALL_TIMEOUT_MS = 30_000;
export const REQUEST_TIMEOUT_MS = 10_000;

// `syndic-mcp tools --json` with every module (`--modules all` where the binary knows it).
export function registryTools(binary) {
    if (!binary) return [];
    for (const args of [['tools', '--json', '--modules', 'all'], ['tools', '--json']]) {
        try {
            return JSON.parse(execFileSync(resolve(binary), args, { stdio: ['ignore', 'pipe', 'ignore'] }).toString());
        } catch { /* try without --modules all */ }
    }
    throw new Error(`${binary} tools --json failed`);
}
// The tools the server's registry offers, every module (`syndic-mcp tools --json`): nothing kept by hand.
export const EXPECTED_TOOLS = registryTools(process.argv[2]).map(t => t.name).sort();
export const READ_ONLY_TOOLS = new Set(['calculate_quorum']); // besides get_* and list_*
export const DEMO_UNITS = ['101', '102', '201', '202', '301', '302', 'P-1', 'P-2', 'P-3', 'P-4', 'R-1', 'R-2'].sort();

// ---------------------------------------------------------------------------------------------
// Harness

export let passed = 0;
export let failed = 0;
export const openTransports = new Set();
export let tmp = null;

export function log(line) {
    process.stdout.write(line + '\n');
}

export async function test(name, fn) {
    try {
        await fn();
        passed++;
        log(`ok   ${name}`);
    } catch (err) {
        failed++;
        log(`FAIL ${name}`);
        const text = err instanceof McpError
            ? `McpError code=${err.code} message=${JSON.stringify(err.message)} data=${JSON.stringify(err.data)}`
            : (err && err.stack) || String(err);
        for (const l of text.split('\n')) log(`     ${l}`);
    }
}

export function cleanup() {
    for (const t of openTransports) t.kill();
    openTransports.clear();
    if (tmp) {
        try { rmSync(tmp, { recursive: true, force: true }); } catch { /* ignore */ }
    }
}

export function finish() {
    clearTimeout(overallTimer);
    cleanup();
    log(`${passed} passed, ${failed} failed`);
    process.exit(failed === 0 ? 0 : 1);
}

const overallTimer = setTimeout(() => {
    failed++;
    log(`FAIL overall time limit of ${OVERALL_TIMEOUT_MS / 1000} s exceeded (the server or a call hangs)`);
    finish();
}, OVERALL_TIMEOUT_MS);

// ---------------------------------------------------------------------------------------------
// A stdio transport that records what the server sends, keeps its stderr (shown on failure,
// never mixed into our output) and lets the test see how the child process ended.

export class RecordingTransport extends StdioClientTransport {
    constructor(label, params) {
        super({ ...params, stderr: 'pipe' });
        this.label = label;
        this.received = [];
        this.sent = [];
        this.stderrText = '';
        this.exit = null; // {code, signal} once the child has exited
        // Drain stderr at once, or a chatty server would block on a full pipe.
        this.stderr.on('data', chunk => { this.stderrText += chunk.toString(); });
    }

    async start() {
        const deliver = this.onmessage;
        this.onmessage = message => {
            this.received.push(message);
            deliver?.(message);
        };
        await super.start();
        // The SDK keeps the child in a private field; reach it only to observe how it exits.
        const child = this._process;
        if (child) {
            this.child = child;
            child.once('exit', (code, signal) => { this.exit = { code, signal }; });
        }
        openTransports.add(this);
    }

    async send(message) {
        this.sent.push(message);
        return super.send(message);
    }

    // Messages received after `from` that answer or report on the request with this id.
    about(id, from = 0) {
        return this.received.slice(from).filter(m => m.id === id || (m.method === 'notifications/progress' && m.params.progressToken === id));
    }

    kill() {
        if (this.child && this.exit === null) {
            try { this.child.kill('SIGKILL'); } catch { /* ignore */ }
        }
    }
}

// `clock`: the server's clock starts then ("YYYY-MM-DD HH:MM:SS" UTC, run under Debian's faketime),
// e.g. a meeting's day: a meeting is held on its day, not before.
export async function connect(label, { apiKey, extraArgs = [], clock } = {}) {
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
    if (apiKey !== undefined) env.SYNDIC_API_KEY = apiKey;
    const serve = ['serve', '--db', dbPath, '--modules', 'all', ...extraArgs];
    const transport = new RecordingTransport(label, {
        command: clock ? 'faketime' : bin,
        args: clock ? [clock, bin, ...serve] : serve,
        env,
    });
    const client = new Client({ name: 'syndic-mcp-interop', version: '1.0.0' }, { capabilities: {} });
    const errors = [];
    client.onerror = err => errors.push(err);
    await client.connect(transport, { timeout: REQUEST_TIMEOUT_MS });
    return { client, transport, errors };
}

export async function closeCleanly(conn) {
    const started = Date.now();
    await conn.client.close();
    const elapsed = Date.now() - started;
    openTransports.delete(conn.transport);
    // The SDK ends stdin, waits 2 s, then sends SIGTERM: a server that exits on end of input
    // closes well before that, with status 0 and no signal.
    assert.ok(elapsed < 1900, `${conn.transport.label}: close took ${elapsed} ms (server did not exit on end of stdin)`);
    if (conn.transport.child) {
        assert.deepEqual(conn.transport.exit, { code: 0, signal: null },
            `${conn.transport.label}: server exit ${JSON.stringify(conn.transport.exit)}; stderr:\n${conn.transport.stderrText.slice(-2000)}`);
    }
    assert.deepEqual(conn.errors.map(String), [], `${conn.transport.label}: protocol/transport errors reported by the SDK`);
}

// ---------------------------------------------------------------------------------------------
// Call helpers

export const ajv = new AjvJsonSchemaValidator();
export const inputValidators = new Map(); // tool name -> validator of its inputSchema (SDK's Ajv)

// null clears an optional field: the server accepts it where the schema file says [T, "null"],
// while tools/list serves such a property with its one type T for hosts that take one type per
// property (docs/decisions.md, "Tool surface"). So nulls are left out of this check.
function withoutNulls(value) {
    if (Array.isArray(value)) return value.map(withoutNulls);
    if (value && typeof value === 'object')
        return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null).map(([k, v]) => [k, withoutNulls(v)]));
    return value;
}

export function checkArgsAgainstSchema(name, args, expectValid = true) {
    const v = inputValidators.get(name);
    if (!v) return;
    const r = v(expectValid ? withoutNulls(args) : args);
    if (expectValid) assert.ok(r.valid, `test bug: arguments of ${name} fail its published inputSchema: ${r.errorMessage}`);
    else assert.ok(!r.valid, `arguments of ${name} were expected to violate its published inputSchema`);
}

// A successful call: no isError, a text content holding the same JSON as structuredContent.
// (The SDK has already checked structuredContent against the tool's outputSchema.)
// The id of the last tools/call of this tool that the client sent on this transport.
export function lastCallId(transport, name) {
    const req = transport.sent.filter(m => m.method === 'tools/call' && m.params.name === name).at(-1);
    assert.ok(req, `no tools/call ${name} sent`);
    return req.id;
}

// @modelcontextprotocol/sdk 1.x dispatches notifications in a microtask but responses at once,
// so progress notifications that reach the client in the same read as the response are
// reported through onerror as "unknown token" (typescript-sdk issue #2580). The server did send
// them in order (checked on the wire); drop only those reports for the given token.
export function forgiveLateProgress(conn, token) {
    const late = conn.errors.filter(e => String(e).includes('progress notification for an unknown token')
        && String(e).includes(`"progressToken":${JSON.stringify(token)}`));
    conn.errors.splice(0, conn.errors.length, ...conn.errors.filter(e => !late.includes(e)));
    return late.length;
}

export async function call(client, name, args = {}, options = {}) {
    checkArgsAgainstSchema(name, args);
    const res = await client.callTool({ name, arguments: args }, undefined, { timeout: REQUEST_TIMEOUT_MS, ...options });
    assert.ok(!res.isError, `${name} returned isError: ${JSON.stringify(res.content)}`);
    assert.ok(res.structuredContent && typeof res.structuredContent === 'object', `${name}: no structuredContent`);
    assert.ok(Array.isArray(res.content) && res.content.length >= 1, `${name}: no content`);
    assert.equal(res.content[0].type, 'text');
    assert.deepEqual(JSON.parse(res.content[0].text), res.structuredContent, `${name}: text content differs from structuredContent`);
    return res.structuredContent;
}

// A refused call: the SDK throws McpError carrying the JSON-RPC error.
export async function expectError(promise, code, message, checkData) {
    let err;
    try {
        const res = await promise;
        assert.fail(`expected a ${code} ${message} error, got a result: ${JSON.stringify(res).slice(0, 500)}`);
    } catch (e) {
        if (e instanceof assert.AssertionError) throw e;
        err = e;
    }
    assert.ok(err instanceof McpError, `expected McpError, got ${err && err.stack}`);
    assert.equal(err.code, code, `error code (message ${JSON.stringify(err.message)})`);
    assert.equal(err.message, `MCP error ${code}: ${message}`);
    assert.ok(err.data && typeof err.data === 'object', 'error data is an object');
    assert.equal(typeof err.data.detail, 'string');
    assert.ok(err.data.detail.length > 0, 'data.detail is not empty');
    if (checkData) checkData(err.data);
    return err;
}

export function deepFindKey(value, key, path = '') {
    if (value === null || typeof value !== 'object') return [];
    const hits = [];
    for (const [k, v] of Object.entries(value)) {
        if (k === key) hits.push(`${path}/${k}`);
        hits.push(...deepFindKey(v, key, `${path}/${k}`));
    }
    return hits;
}

// ---------------------------------------------------------------------------------------------
// Set-up

const binArg = process.argv[2];
if (!binArg) {
    log('usage: node interop.mjs /path/to/syndic-mcp');
    log('0 passed, 1 failed');
    process.exit(2);
}
export const bin = resolve(binArg);
export let dbPath;
export let apiKey;

process.on('unhandledRejection', err => {
    failed++;
    log(`FAIL unhandled rejection: ${(err && err.stack) || err}`);
    finish();
});

await test('demo database and admin key', async () => {
    assert.ok(existsSync(bin), `no executable at ${bin}`);
    tmp = mkdtempSync(join(tmpdir(), 'syndic-interop-'));
    dbPath = join(tmp, 'syndic.db');
    const { stdout } = await promisify(execFile)(bin, ['demo', '--db', dbPath], {
        timeout: REQUEST_TIMEOUT_MS,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    });
    apiKey = stdout.trim();
    assert.match(apiKey, /^sk_[0-9A-Za-z]{43,}$/, 'demo prints one API key (sk_ + >= 32 random bytes in base62) on stdout');
    assert.ok(existsSync(dbPath), 'database file created');
});
if (!apiKey) finish();

// ---------------------------------------------------------------------------------------------
// Main client: admin key

export let main;
await test('connect: initialize handshake with the SDK client', async () => {
    main = await connect('main', { apiKey });
});
if (!main) finish();
export const client = main.client;

// Every call's arguments are checked against the tool's published inputSchema (SDK's Ajv); the
// tools/list test of interop.mjs checks that each compiles.
try {
    for (const t of (await client.listTools(undefined, { timeout: REQUEST_TIMEOUT_MS })).tools) {
        inputValidators.set(t.name, ajv.getValidator(t.inputSchema));
    }
} catch { /* interop.mjs's tools/list test reports it */ }

// The demo's facts a file starts from, read without a check: apartment 302 and the 8 co-owners.
export async function demoFacts() {
    const units = (await call(client, 'list_units', { pageSize: 200 })).data;
    const coOwners = (await call(client, 'list_co_owners', { pageSize: 200 })).data;
    return { apt: units.find(u => u.number === '302'), coOwners };
}

// Closes each connection (the server must exit 0 on end of stdin, with no protocol error), then
// prints the summary and exits.
export async function closeAndFinish(connections) {
    for (const [label, conn] of connections) {
        if (!conn) continue;
        await test(`close ${label}: server exits 0 on end of stdin, no protocol errors`, async () => {
            await closeCleanly(conn);
        });
    }
    finish();
}
