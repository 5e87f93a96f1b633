#!/usr/bin/env node
// Interop test: syndic-mcp (stdio) driven by the official MCP TypeScript SDK client.
//
// Usage: node tests/interop/interop.mjs /path/to/syndic-mcp
//
// Creates a demo database in a temporary directory, starts the server three times on it
// (with an admin key, without credentials, and with --tools-page-size 5), and checks the
// handshake, the tool descriptors, one successful call of every tool (the SDK validates each
// structuredContent against the tool's outputSchema), a whole meeting from draft to minutes-sent
// (decisions.md §6: notice, attendance, quorum, resolutions, votes, PDF minutes checked on disk),
// the error mapping of decisions.md §3,
// tools/list pagination, progress notifications, cancellation, an unknown method (§9) and a
// clean shutdown. Prints "N passed, M failed" last and exits non-zero on any failure or when the
// whole run exceeds its time limit.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
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

const OVERALL_TIMEOUT_MS = 30_000;
const REQUEST_TIMEOUT_MS = 10_000;

// The tools the tests expect, written by hand in tests/catalogue.json.
const CATALOGUE = JSON.parse(readFileSync(new URL('../catalogue.json', import.meta.url), 'utf8')).tools;
const EXPECTED_TOOLS = CATALOGUE.map(t => t.name).sort();
const READ_ONLY_TOOLS = new Set(['calculate_quorum']); // besides get_* and list_*
const DEMO_UNITS = ['101', '102', '201', '202', '301', '302', 'P-1', 'P-2', 'P-3', 'P-4', 'R-1', 'R-2'].sort();

// ---------------------------------------------------------------------------------------------
// Harness

let passed = 0;
let failed = 0;
const openTransports = new Set();
let tmp = null;

function log(line) {
    process.stdout.write(line + '\n');
}

async function test(name, fn) {
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

function cleanup() {
    for (const t of openTransports) t.kill();
    openTransports.clear();
    if (tmp) {
        try { rmSync(tmp, { recursive: true, force: true }); } catch { /* ignore */ }
    }
}

function finish() {
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

class RecordingTransport extends StdioClientTransport {
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

async function connect(label, { apiKey, extraArgs = [] } = {}) {
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
    if (apiKey !== undefined) env.SYNDIC_API_KEY = apiKey;
    const transport = new RecordingTransport(label, {
        command: bin,
        args: ['serve', '--db', dbPath, ...extraArgs],
        env,
    });
    const client = new Client({ name: 'syndic-mcp-interop', version: '1.0.0' }, { capabilities: {} });
    const errors = [];
    client.onerror = err => errors.push(err);
    await client.connect(transport, { timeout: REQUEST_TIMEOUT_MS });
    return { client, transport, errors };
}

async function closeCleanly(conn) {
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

const ajv = new AjvJsonSchemaValidator();
const inputValidators = new Map(); // tool name -> validator of its inputSchema (SDK's Ajv)

function checkArgsAgainstSchema(name, args, expectValid = true) {
    const v = inputValidators.get(name);
    if (!v) return;
    const r = v(args);
    if (expectValid) assert.ok(r.valid, `test bug: arguments of ${name} fail its published inputSchema: ${r.errorMessage}`);
    else assert.ok(!r.valid, `arguments of ${name} were expected to violate its published inputSchema`);
}

// A successful call: no isError, a text content holding the same JSON as structuredContent.
// (The SDK has already checked structuredContent against the tool's outputSchema.)
// The id of the last tools/call of this tool that the client sent on this transport.
function lastCallId(transport, name) {
    const req = transport.sent.filter(m => m.method === 'tools/call' && m.params.name === name).at(-1);
    assert.ok(req, `no tools/call ${name} sent`);
    return req.id;
}

// @modelcontextprotocol/sdk 1.x dispatches notifications in a microtask but responses at once,
// so progress notifications that reach the client in the same read as the response are
// reported through onerror as "unknown token" (typescript-sdk issue #2580). The server did send
// them in order (checked on the wire); drop only those reports for the given token.
function forgiveLateProgress(conn, token) {
    const late = conn.errors.filter(e => String(e).includes('progress notification for an unknown token')
        && String(e).includes(`"progressToken":${JSON.stringify(token)}`));
    conn.errors.splice(0, conn.errors.length, ...conn.errors.filter(e => !late.includes(e)));
    return late.length;
}

async function call(client, name, args = {}, options = {}) {
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
async function expectError(promise, code, message, checkData) {
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

function deepFindKey(value, key, path = '') {
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
const bin = resolve(binArg);
let dbPath;
let apiKey;

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

let main;
await test('connect: initialize handshake with the SDK client', async () => {
    main = await connect('main', { apiKey });
});
if (!main) finish();
const client = main.client;

await test('negotiated protocol version, server info, capabilities, instructions', async () => {
    const init = main.transport.received.find(m => m.id !== undefined && m.result && m.result.protocolVersion);
    assert.ok(init, 'initialize result recorded');
    assert.equal(init.result.protocolVersion, LATEST_PROTOCOL_VERSION, 'server accepts the SDK\'s latest version');
    assert.ok(SUPPORTED_PROTOCOL_VERSIONS.includes(init.result.protocolVersion));
    const info = client.getServerVersion();
    assert.equal(info.name, 'syndic-mcp');
    assert.equal(typeof info.version, 'string');
    assert.ok(info.version.length > 0);
    const caps = client.getServerCapabilities();
    assert.ok(caps && typeof caps.tools === 'object', 'tools capability');
    for (const other of ['resources', 'prompts', 'completions']) {
        assert.equal(caps[other], undefined, `no ${other} capability advertised (none implemented)`);
    }
    const instructions = client.getInstructions();
    if (instructions !== undefined) assert.equal(typeof instructions, 'string');
});

await test('ping', async () => {
    assert.deepEqual(await client.ping({ timeout: REQUEST_TIMEOUT_MS }), {});
});

let tools = [];
await test(`tools/list: ${EXPECTED_TOOLS.length} tools, every descriptor complete`, async () => {
    const res = await client.listTools(undefined, { timeout: REQUEST_TIMEOUT_MS });
    tools = res.tools;
    assert.equal(res.nextCursor, undefined, 'one page when no page size is set');
    assert.deepEqual(tools.map(t => t.name).sort(), EXPECTED_TOOLS);
    for (const t of tools) {
        const where = `tool ${t.name}`;
        assert.match(t.name, /^[a-z0-9_]{1,64}$/, where);
        assert.equal(typeof t.title, 'string', `${where}: title`);
        assert.ok(typeof t.description === 'string' && t.description.length > 0, `${where}: description`);
        assert.equal(t.inputSchema.type, 'object', `${where}: inputSchema.type`);
        assert.ok(t.inputSchema.properties && typeof t.inputSchema.properties === 'object', `${where}: inputSchema.properties`);
        for (const k of ['oneOf', 'anyOf', 'allOf', '$ref']) {
            assert.equal(t.inputSchema[k], undefined, `${where}: top-level ${k} in inputSchema`);
        }
        assert.ok(t.outputSchema, `${where}: outputSchema`);
        assert.equal(t.outputSchema.type, 'object', `${where}: outputSchema.type`);
        for (const k of ['$ref', '$embed']) {
            assert.deepEqual(deepFindKey(t.inputSchema, k), [], `${where}: ${k} left in inputSchema`);
            assert.deepEqual(deepFindKey(t.outputSchema, k), [], `${where}: ${k} left in outputSchema`);
        }
        const a = t.annotations;
        assert.ok(a, `${where}: annotations`);
        for (const h of ['readOnlyHint', 'destructiveHint', 'idempotentHint']) {
            assert.equal(typeof a[h], 'boolean', `${where}: annotations.${h}`);
        }
        const readOnly = /^(get|list)_/.test(t.name) || READ_ONLY_TOOLS.has(t.name);
        assert.equal(a.readOnlyHint, readOnly, `${where}: readOnlyHint`);
        assert.equal(a.destructiveHint, t.name.startsWith('delete_'), `${where}: destructiveHint`);
        // Every input schema must compile with the SDK's own validator (Ajv + formats).
        inputValidators.set(t.name, ajv.getValidator(t.inputSchema));
    }
});

// --- units -----------------------------------------------------------------------------------

let units = [];
const unitByNumber = new Map();
await test('list_units: the 12 demo units', async () => {
    const r = await call(client, 'list_units', { pageSize: 200 });
    units = r.data;
    assert.equal(r.pagination.total, 12);
    assert.equal(r.pagination.page, 1);
    assert.equal(r.pagination.pageSize, 200);
    assert.deepEqual(units.map(u => u.number).sort(), DEMO_UNITS);
    for (const u of units) unitByNumber.set(u.number, u);
    const sum = units.reduce((s, u) => s + u.fractionPercent, 0);
    assert.ok(Math.abs(sum - 100) < 1e-6, `demo fractions sum to 100, got ${sum}`);
    const paged = await call(client, 'list_units', { type: 'parking', pageSize: 2, page: 2 });
    assert.equal(paged.pagination.total, 4);
    assert.equal(paged.data.length, 2);
    assert.ok(paged.data.every(u => u.type === 'parking'));
});
if (units.length === 0) finish();
const apt = unitByNumber.get('302');

await test('get_unit with includeLinked', async () => {
    const u = await call(client, 'get_unit', { id: apt.id, includeLinked: true });
    assert.equal(u.id, apt.id);
    assert.equal(u.number, '302');
    assert.equal(u.type, 'apartment');
    assert.ok(Array.isArray(u.linked), 'linked units returned');
    assert.deepEqual(u.linked.map(l => l.id).sort(), [...u.linkedUnits].sort());
});

let newUnit;
await test('create_unit (parking, fraction 0)', async () => {
    newUnit = await call(client, 'create_unit', {
        number: 'P-9', type: 'parking', floor: -1, areaSqFt: 150, fractionPercent: 0, cadastralLot: null,
    });
    assert.equal(newUnit.number, 'P-9');
    assert.equal(newUnit.type, 'parking');
    assert.equal(newUnit.fractionPercent, 0);
    assert.deepEqual(newUnit.linkedUnits, []);
    assert.equal(typeof newUnit.areaSqM, 'number', 'areaSqM derived from areaSqFt');
});

await test('update_unit: link the new parking to apartment 302', async () => {
    const u = await call(client, 'update_unit', { id: newUnit.id, linkedUnits: [apt.id] });
    assert.deepEqual(u.linkedUnits, [apt.id]);
    const a = await call(client, 'get_unit', { id: apt.id });
    assert.ok(a.linkedUnits.includes(newUnit.id), 'the apartment sees the link too');
});

await test('delete_unit: the new parking (and its link)', async () => {
    const d = await call(client, 'delete_unit', { id: newUnit.id });
    assert.equal(d.id, newUnit.id);
    assert.equal(typeof d.deletedAt, 'string');
    const a = await call(client, 'get_unit', { id: apt.id });
    assert.ok(!a.linkedUnits.includes(newUnit.id), 'link removed from the apartment');
    await expectError(client.callTool({ name: 'get_unit', arguments: { id: newUnit.id } }), -32000, 'UNIT_NOT_FOUND');
});

// --- declaration -----------------------------------------------------------------------------

await test('get_fraction_sum', async () => {
    const s = await call(client, 'get_fraction_sum', {});
    assert.deepEqual(s, { sum: 100, unitCount: 12, min: 99.5, max: 100.5, balanced: true });
});

await test('rebalance_fractions dryRun on a balanced building', async () => {
    const r = await call(client, 'rebalance_fractions', { dryRun: true });
    assert.equal(r.dryRun, true);
    assert.equal(r.sum, 100);
    assert.equal(r.previousSum, 100);
    assert.equal(r.unitCount, 12);
    assert.ok(r.changes.every(c => c.before === c.after), 'nothing to change');
});

await test('rebalance_fractions dryRun at 100.4 shows changes and writes nothing', async () => {
    const extra = await call(client, 'create_unit', { number: 'R-9', type: 'storage', fractionPercent: 0.4 });
    try {
        const before = await call(client, 'get_fraction_sum', {});
        assert.equal(before.sum, 100.4);
        assert.equal(before.unitCount, 13);
        assert.equal(before.balanced, true);
        const r = await call(client, 'rebalance_fractions', { dryRun: true });
        assert.equal(r.dryRun, true);
        assert.equal(r.previousSum, 100.4);
        assert.equal(r.sum, 100);
        assert.ok(r.changes.length > 0, 'changes listed');
        for (const c of r.changes) {
            assert.equal(typeof c.number, 'string');
            assert.ok(c.after <= c.before, `${c.number}: scaled down`);
        }
        const after = await call(client, 'get_fraction_sum', {});
        assert.equal(after.sum, 100.4, 'dry run wrote nothing');
    } finally {
        await call(client, 'delete_unit', { id: extra.id });
    }
    assert.equal((await call(client, 'get_fraction_sum', {})).sum, 100);
});

// --- co-owners -------------------------------------------------------------------------------

let coOwners = [];
await test('list_co_owners: the 8 demo co-owners, sorted by last name', async () => {
    const r = await call(client, 'list_co_owners', { pageSize: 200 });
    coOwners = r.data;
    assert.equal(r.pagination.total, 8);
    assert.equal(coOwners.length, 8);
    const names = coOwners.map(c => c.lastName);
    assert.deepEqual(names, [...names].sort((a, b) => a.localeCompare(b, 'fr', { sensitivity: 'base' })));
    assert.ok(coOwners.every(c => c.deletedAt === null));
});

await test('get_co_owner', async () => {
    const c = await call(client, 'get_co_owner', { id: coOwners[0].id });
    assert.deepEqual(c, coOwners[0]);
});

// --- meetings (decisions.md §6) --------------------------------------------------------------
// One meeting from draft to minutes-sent, on the 8 demo co-owners (before this test adds any).

const DAY_MS = 24 * 3600 * 1000;

// An ISO 8601 date-time, whole seconds, with the given offset from UTC in minutes ("Z" for 0).
function isoWithOffset(ms, offsetMinutes) {
    const local = new Date(Math.floor(ms / 1000) * 1000 + offsetMinutes * 60_000).toISOString().slice(0, 19);
    if (offsetMinutes === 0) return `${local}Z`;
    const abs = Math.abs(offsetMinutes);
    const pad = n => String(n).padStart(2, '0');
    return `${local}${offsetMinutes < 0 ? '-' : '+'}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

// America/Montreal's offset at that instant, as "-05:00" or "-04:00".
function montrealOffset(ms) {
    const name = new Intl.DateTimeFormat('en-US', { timeZone: 'America/Montreal', timeZoneName: 'longOffset' })
        .formatToParts(new Date(ms)).find(p => p.type === 'timeZoneName').value;
    return name.replace(/^GMT/, '');
}

function near(actual, expected, what) {
    assert.equal(typeof actual, 'number', `${what} is a number`);
    assert.ok(Math.abs(actual - expected) < 1e-6, `${what}: expected ${expected}, got ${actual}`);
}

function sha256File(path) {
    return createHash('sha256').update(readFileSync(path)).digest('hex');
}

// A generate_minutes result checked against the PDF on disk.
function checkMinutesFile(r, meetingId, { draft, language }) {
    assert.equal(r.meetingId, meetingId);
    assert.equal(r.draft, draft);
    assert.equal(r.language, language);
    assert.match(r.documentId, /\S/);
    assert.ok(Number.isInteger(r.pages) && r.pages >= 1, `pages ${r.pages}`);
    assert.ok(existsSync(r.path), `PDF written at ${r.path}`);
    assert.equal(dirname(r.path), join(tmp, 'exports'), 'written under <data dir>/exports/');
    assert.equal(r.sizeBytes, statSync(r.path).size, 'sizeBytes is the size of the file on disk');
    assert.match(r.sha256, /^[0-9a-f]{64}$/);
    assert.equal(r.sha256, sha256File(r.path), 'sha256 is the SHA-256 of the file on disk');
    const bytes = readFileSync(r.path).toString('latin1');
    assert.ok(bytes.startsWith('%PDF-'), 'a PDF file');
    // Page objects are not compressed: count them to check `pages` independently.
    assert.equal((bytes.match(/\/Type\s*\/Page(?![A-Za-z])/g) ?? []).length, r.pages, 'pages is the number of page objects in the PDF');
}

let meeting;
const meetingAt = Date.now() + 30 * DAY_MS;
const meetingAgenda = ['Ouverture de l\'assemblée', 'Adoption du budget 2027', 'Élection du conseil'];
await test('create_meeting: aga 30 days ahead (offset -05:00) is a draft', async () => {
    const scheduledAt = isoWithOffset(meetingAt, -300);
    meeting = await call(client, 'create_meeting', {
        title: 'Assemblée générale annuelle (interop)', type: 'aga', scheduledAt,
        location: '1234 rue Saint-Denis, Montréal, salle commune', agenda: meetingAgenda,
    });
    assert.equal(meeting.type, 'aga');
    assert.equal(meeting.status, 'draft');
    assert.equal(meeting.title, 'Assemblée générale annuelle (interop)');
    assert.deepEqual(meeting.agenda, meetingAgenda);
    assert.equal(meeting.notice, null);
    assert.deepEqual([meeting.attendees, meeting.resolutions, meeting.documents], [[], [], []]);
    assert.equal(meeting.quorumPercent, 0);
    assert.equal(Date.parse(meeting.scheduledAt), Date.parse(scheduledAt), `same instant: sent ${scheduledAt}, shown ${meeting.scheduledAt}`);
    assert.ok(meeting.scheduledAt.endsWith(montrealOffset(meetingAt)), `shown in America/Montreal time: ${meeting.scheduledAt}`);
});
// If it failed, the meeting steps below fail too (no meeting), but the other modules still run.

await test('get_meeting', async () => {
    const m = await call(client, 'get_meeting', { id: meeting.id });
    assert.deepEqual(m, meeting);
});

await test('list_meetings status draft', async () => {
    const r = await call(client, 'list_meetings', { status: 'draft' });
    assert.ok(r.data.every(m => m.status === 'draft'), 'only drafts');
    const mine = r.data.find(m => m.id === meeting.id);
    assert.ok(mine, 'the new meeting is listed');
    assert.equal(mine.attendeeCount, 0);
    assert.equal(mine.resolutionCount, 0);
    assert.equal(mine.scheduledAt, meeting.scheduledAt);
    assert.equal(r.pagination.total, r.data.length);
    const held = await call(client, 'list_meetings', { status: 'held' });
    assert.ok(!held.data.some(m => m.id === meeting.id), 'not among held meetings');
});

await test('send_meeting_notice: queued for co-owners with an e-mail, the others listed', async () => {
    const withEmail = coOwners.filter(c => c.email);
    const without = coOwners.filter(c => !c.email);
    assert.deepEqual([withEmail.length, without.length], [7, 1], 'demo: 8 co-owners, one without e-mail');
    const r = await call(client, 'send_meeting_notice', { meetingId: meeting.id });
    assert.equal(r.queued, withEmail.length);
    assert.deepEqual(r.withoutEmail.map(w => w.coOwnerId).sort(), without.map(c => c.id).sort());
    for (const w of r.withoutEmail) {
        const c = coOwners.find(x => x.id === w.coOwnerId);
        assert.equal(w.name, `${c.firstName} ${c.lastName}`);
    }
    assert.equal(r.meeting.id, meeting.id);
    assert.equal(r.meeting.status, 'notice-sent');
    assert.ok(r.meeting.notice, 'notice recorded');
    assert.equal(r.meeting.notice.channel, 'email');
    assert.equal(r.meeting.notice.includeAgenda, true);
    assert.equal(r.meeting.notice.justification, null);
    assert.ok(!Number.isNaN(Date.parse(r.meeting.notice.sentAt)), 'notice.sentAt is a date-time');
});

// Attendance: four present, one by proxy, one absent; two co-owners not recorded.
const byName = (first, last) => coOwners.find(c => c.firstName === first && c.lastName === last);
let attendance = [];
let expectedQuorum;
await test('record_attendance: present, proxy (with proxyHolder), absent', async () => {
    const present = [byName('Émilie', 'Bélanger'), byName('Luc', 'Côté'), byName('Sophie', 'Lavoie'), byName('Marie', 'Tremblay')];
    const proxy = byName('David', 'Thompson');
    const absent = byName('Jean-François', 'Gagnon');
    assert.ok([...present, proxy, absent].every(Boolean), 'demo co-owners found by name');
    attendance = [
        ...present.map(c => ({ coOwnerId: c.id, attendance: 'present' })),
        { coOwnerId: proxy.id, attendance: 'proxy', proxyHolder: 'Marie Tremblay' },
        { coOwnerId: absent.id, attendance: 'absent', proxyHolder: null },
    ];
    const sum = list => list.reduce((s, c) => s + c.fractionPercent, 0);
    expectedQuorum = { present: sum(present), proxied: proxy.fractionPercent };
    expectedQuorum.total = expectedQuorum.present + expectedQuorum.proxied;

    const r = await call(client, 'record_attendance', { meetingId: meeting.id, attendees: attendance });
    assert.equal(r.id, meeting.id);
    assert.equal(r.status, 'notice-sent');
    assert.equal(r.attendees.length, attendance.length);
    for (const row of attendance) {
        const a = r.attendees.find(x => x.coOwnerId === row.coOwnerId);
        const c = coOwners.find(x => x.id === row.coOwnerId);
        assert.ok(a, `attendee ${c.firstName} ${c.lastName} recorded`);
        assert.equal(a.name, `${c.firstName} ${c.lastName}`);
        near(a.fractionPercent, c.fractionPercent, `${a.name} fraction`);
        assert.equal(a.attendance, row.attendance);
        assert.equal(a.proxyHolder, row.attendance === 'proxy' ? 'Marie Tremblay' : null);
    }
    near(r.quorum.present, expectedQuorum.present, 'quorum.present');
    near(r.quorum.proxied, expectedQuorum.proxied, 'quorum.proxied');
    near(r.quorum.total, expectedQuorum.total, 'quorum.total');
    near(r.quorumPercent, expectedQuorum.total, 'quorumPercent is the current total');
});

await test('calculate_quorum: present + proxied = total, quorum reached', async () => {
    const q = await call(client, 'calculate_quorum', { meetingId: meeting.id });
    near(q.present, expectedQuorum.present, 'present');
    near(q.proxied, expectedQuorum.proxied, 'proxied');
    near(q.total, q.present + q.proxied, 'total = present + proxied');
    near(q.total, expectedQuorum.total, 'total');
    near(q.required, 51, 'required (syndicate default)');
    assert.equal(q.quorumReached, q.total >= q.required);
    assert.equal(q.quorumReached, true, `${q.total}% >= ${q.required}%`);
});

let simpleRes;
let specialRes;
await test('add_resolution x2 (simple, special): pending', async () => {
    simpleRes = await call(client, 'add_resolution', {
        meetingId: meeting.id, title: 'Adoption du budget 2027', majorityRequired: 'simple',
        description: 'Il est résolu d\'adopter le budget de l\'exercice 2027 tel que présenté.',
    });
    specialRes = await call(client, 'add_resolution', {
        meetingId: meeting.id, title: 'Modification de la déclaration de copropriété', majorityRequired: 'special',
    });
    for (const [r, n, maj] of [[simpleRes, 1, 'simple'], [specialRes, 2, 'special']]) {
        assert.equal(r.meetingId, meeting.id);
        assert.equal(r.number, n);
        assert.equal(r.majorityRequired, maj);
        assert.equal(r.outcome, 'pending');
        assert.equal(r.votesRecorded, false);
        assert.deepEqual([r.votesFor, r.votesAgainst, r.votesAbstain], [0, 0, 0]);
    }
    assert.equal(simpleRes.description, 'Il est résolu d\'adopter le budget de l\'exercice 2027 tel que présenté.');
    assert.equal(specialRes.description, '');
    assert.notEqual(simpleRes.id, specialRes.id);
});

await test('record_votes: simple passes, special rejected (votes within the fractions represented)', async () => {
    // Represented: expectedQuorum.total (75.25 in the demo).
    const v1 = { votesFor: 50, votesAgainst: 20, votesAbstain: 5.25 };
    const v2 = { votesFor: 70, votesAgainst: 5, votesAbstain: 0 };
    for (const v of [v1, v2]) {
        assert.ok(v.votesFor + v.votesAgainst + v.votesAbstain <= expectedQuorum.total + 1e-9, 'test bug: votes beyond representation');
    }
    const r1 = await call(client, 'record_votes', { resolutionId: simpleRes.id, meetingId: meeting.id, ...v1 });
    assert.equal(r1.id, simpleRes.id);
    assert.equal(r1.votesRecorded, true);
    near(r1.votesFor, 50, 'votesFor');
    near(r1.votesAgainst, 20, 'votesAgainst');
    near(r1.votesAbstain, 5.25, 'votesAbstain');
    assert.equal(r1.outcome, 'passed', 'simple: 50 of 75.25 cast is more than 50%');
    const r2 = await call(client, 'record_votes', { resolutionId: specialRes.id, ...v2 });
    assert.equal(r2.id, specialRes.id);
    assert.equal(r2.votesRecorded, true);
    assert.equal(r2.outcome, 'rejected', 'special: votes against');
});

await test('update_meeting status held', async () => {
    const m = await call(client, 'update_meeting', { id: meeting.id, status: 'held' });
    assert.equal(m.status, 'held');
    assert.equal(m.resolutions.length, 2);
    assert.equal(m.attendees.length, attendance.length);
});

let draftMinutes;
await test('generate_minutes draft (en) with an onprogress handler: PDF on disk matches the result', async () => {
    const progress = [];
    const from = main.transport.received.length;
    draftMinutes = await call(client, 'generate_minutes', { meetingId: meeting.id, draft: true, language: 'en' }, {
        onprogress: p => progress.push(p),
    });
    checkMinutesFile(draftMinutes, meeting.id, { draft: true, language: 'en' });

    // Progress is optional here; whatever was sent must be well formed and precede the response.
    const id = lastCallId(main.transport, 'generate_minutes');
    const wire = main.transport.about(id, from);
    assert.equal(wire.at(-1).id, id, 'the response comes after any progress notification');
    const notes = wire.slice(0, -1).map(m => m.params);
    notes.forEach((n, i) => {
        assert.equal(typeof n.progress, 'number');
        if (n.total !== undefined) assert.ok(n.progress <= n.total, 'progress <= total');
        if (i > 0) assert.ok(n.progress > notes[i - 1].progress, 'progress increases');
    });
    assert.deepEqual(progress.map(p => p.progress), notes.slice(0, progress.length).map(n => n.progress));
    const late = forgiveLateProgress(main, id);
    assert.equal(progress.length + late, notes.length, 'every notification either delivered or reported late by the SDK');
    log(`     (${notes.length} progress notification(s) sent, ${progress.length} delivered to onprogress, ${late} read with the response)`);
});

await test('update_meeting minutes-sent with only draft minutes -> INVALID_STATUS_TRANSITION', async () => {
    await expectError(client.callTool({ name: 'update_meeting', arguments: { id: meeting.id, status: 'minutes-sent' } }),
        -32000, 'INVALID_STATUS_TRANSITION', d => assert.equal(d.field, '/status'));
});

let finalMinutes;
await test('generate_minutes final (fr): PDF on disk matches the result', async () => {
    finalMinutes = await call(client, 'generate_minutes', { meetingId: meeting.id, draft: false });
    checkMinutesFile(finalMinutes, meeting.id, { draft: false, language: 'fr' });
    assert.notEqual(finalMinutes.documentId, draftMinutes?.documentId);
    assert.notEqual(finalMinutes.path, draftMinutes?.path);
});

await test('update_meeting status minutes-sent', async () => {
    const m = await call(client, 'update_meeting', { id: meeting.id, status: 'minutes-sent' });
    assert.equal(m.status, 'minutes-sent');
});

await test('get_meeting: minutes-sent with its 2 minutes documents', async () => {
    const m = await call(client, 'get_meeting', { id: meeting.id });
    assert.equal(m.status, 'minutes-sent');
    assert.equal(m.documents.length, 2);
    for (const r of [draftMinutes, finalMinutes]) {
        assert.ok(r, 'minutes generated');
        const d = m.documents.find(x => x.documentId === r.documentId);
        assert.ok(d, `document ${r.documentId} listed`);
        assert.equal(d.kind, 'minutes');
        assert.deepEqual([d.draft, d.language, d.path, d.pages, d.sizeBytes, d.sha256],
            [r.draft, r.language, r.path, r.pages, r.sizeBytes, r.sha256]);
    }
    assert.deepEqual(m.resolutions.map(r => [r.number, r.outcome]), [[1, 'passed'], [2, 'rejected']]);
    assert.equal(m.attendees.length, attendance.length);
    near(m.quorumPercent, expectedQuorum.total, 'quorumPercent');
    assert.ok(m.notice, 'notice kept');
    const listed = (await call(client, 'list_meetings', { status: 'minutes-sent' })).data.find(x => x.id === meeting.id);
    assert.ok(listed, 'listed as minutes-sent');
    assert.equal(listed.attendeeCount, attendance.length);
    assert.equal(listed.resolutionCount, 2);
});

// --- meetings: errors ------------------------------------------------------------------------

let soonMeeting;
await test('error: send_meeting_notice 10 days ahead -> NOTICE_PERIOD_TOO_SHORT with data.daysAhead', async () => {
    soonMeeting = await call(client, 'create_meeting', {
        title: 'Assemblée trop proche (interop)', type: 'aga', scheduledAt: isoWithOffset(Date.now() + 10 * DAY_MS, 0),
        location: 'En ligne',
    });
    assert.equal(soonMeeting.status, 'draft');
    await expectError(client.callTool({ name: 'send_meeting_notice', arguments: { meetingId: soonMeeting.id } }),
        -32000, 'NOTICE_PERIOD_TOO_SHORT', d => {
            assert.equal(typeof d.daysAhead, 'number', 'data.daysAhead');
            assert.ok(d.daysAhead > 9.9 && d.daysAhead <= 10, `daysAhead ${d.daysAhead}`);
        });
    const m = await call(client, 'get_meeting', { id: soonMeeting.id });
    assert.equal(m.status, 'draft', 'refused notice changed nothing');
    assert.equal(m.notice, null);
});

await test('error: update_meeting draft -> held -> INVALID_STATUS_TRANSITION', async () => {
    assert.ok(soonMeeting, 'draft meeting created');
    await expectError(client.callTool({ name: 'update_meeting', arguments: { id: soonMeeting.id, status: 'held' } }),
        -32000, 'INVALID_STATUS_TRANSITION', d => assert.equal(d.field, '/status'));
    assert.equal((await call(client, 'get_meeting', { id: soonMeeting.id })).status, 'draft');
});

await test('error: get_meeting unknown id -> MEETING_NOT_FOUND', async () => {
    await expectError(client.callTool({ name: 'get_meeting', arguments: { id: 'no-such-meeting' } }),
        -32000, 'MEETING_NOT_FOUND', d => assert.equal(d.field, '/id'));
});

await test('error: record_votes unknown resolution -> RESOLUTION_NOT_FOUND', async () => {
    await expectError(client.callTool({
        name: 'record_votes',
        arguments: { resolutionId: 'no-such-resolution', votesFor: 10, votesAgainst: 0, votesAbstain: 0 },
    }), -32000, 'RESOLUTION_NOT_FOUND', d => assert.equal(d.field, '/resolutionId'));
});

let person;
await test('create_co_owner', async () => {
    person = await call(client, 'create_co_owner', {
        firstName: 'Interop', lastName: 'Tester', unitId: apt.id, email: 'interop.tester@example.ca',
        fractionPercent: 0, isPrimary: false, language: 'en', hasPortalAccess: true,
    });
    assert.equal(person.unitId, apt.id);
    assert.equal(person.unitNumber, '302');
    assert.equal(person.email, 'interop.tester@example.ca');
    assert.equal(person.language, 'en');
    assert.equal(person.deletedAt, null);
});

await test('update_co_owner (set phone, clear email)', async () => {
    const c = await call(client, 'update_co_owner', { id: person.id, phone: '+15145550123', email: null });
    assert.equal(c.phone, '+15145550123');
    assert.equal(c.email, null);
    assert.equal(c.firstName, 'Interop', 'other fields kept');
});

await test('delete_co_owner archives', async () => {
    const r = await call(client, 'delete_co_owner', { id: person.id });
    assert.equal(r.coOwner.id, person.id);
    assert.equal(typeof r.coOwner.deletedAt, 'string');
    assert.equal(r.portalAccessRevoked, true);
    assert.equal((await call(client, 'list_co_owners', {})).pagination.total, 8);
    assert.equal((await call(client, 'list_co_owners', { includeArchived: true })).pagination.total, 9);
    assert.equal(typeof (await call(client, 'get_co_owner', { id: person.id })).deletedAt, 'string');
});

await test('restore_co_owner', async () => {
    const c = await call(client, 'restore_co_owner', { id: person.id });
    assert.equal(c.id, person.id);
    assert.equal(c.deletedAt, null);
    assert.equal(c.hasPortalAccess, false, 'portal access is not restored');
    assert.equal((await call(client, 'list_co_owners', {})).pagination.total, 9);
});

await test('bulk_create_co_owners with progress notifications', async () => {
    const rows = [];
    for (let i = 0; i < 500; i++) rows.push({ firstName: `Bulk${i}`, lastName: 'Interop', unitId: apt.id });
    rows[7] = { ...rows[7], email: 'bad' };
    const progress = [];
    const from = main.transport.received.length;
    const r = await call(client, 'bulk_create_co_owners', { coOwners: rows }, {
        onprogress: p => progress.push(p),
    });
    assert.equal(r.createdCount, 499);
    assert.equal(r.errorCount, 1);
    assert.equal(r.created.length, 499);
    assert.deepEqual(r.errors.map(e => [e.index, e.code, e.field]), [[7, 'INVALID_EMAIL', '/coOwners/7/email']]);

    // On the wire: progress notifications echo the request's progressToken, increase, end at
    // the total, and all come before the response.
    const id = lastCallId(main.transport, 'bulk_create_co_owners');
    const sentReq = main.transport.sent.find(m => m.id === id);
    assert.equal(sentReq.params._meta.progressToken, id, 'the SDK uses the request id as progress token');
    const wire = main.transport.about(id, from);
    assert.ok(wire.length >= 2, 'progress notifications and a response');
    assert.equal(wire.at(-1).id, id, 'the response comes after every progress notification');
    const notes = wire.slice(0, -1).map(m => m.params);
    assert.ok(notes.length >= 1);
    notes.forEach((n, i) => {
        assert.equal(n.total, 500);
        if (i > 0) assert.ok(n.progress > notes[i - 1].progress, 'progress increases');
    });
    assert.equal(notes.at(-1).progress, 500, 'last notification reports completion');

    // Through the SDK: onprogress saw at least one of them, in order.
    assert.ok(progress.length >= 1, 'at least one progress notification delivered to onprogress');
    assert.deepEqual(progress.map(p => p.progress), notes.slice(0, progress.length).map(n => n.progress));
    const late = forgiveLateProgress(main, id);
    assert.equal(progress.length + late, notes.length, 'every notification either delivered or reported late by the SDK');
    if (late) log(`     (SDK dropped ${late} progress notification(s) read together with the response: typescript-sdk#2580)`);
    // 499 bulk rows plus the co-owner "Interop Tester" created above
    assert.equal((await call(client, 'list_co_owners', { unitId: apt.id, search: 'interop', pageSize: 1 })).pagination.total, 500);
});

// --- errors ----------------------------------------------------------------------------------

await test('error: get_unit unknown id -> -32000 UNIT_NOT_FOUND', async () => {
    await expectError(client.callTool({ name: 'get_unit', arguments: { id: 'no-such-unit' } }), -32000, 'UNIT_NOT_FOUND',
        d => assert.equal(d.field, '/id'));
});

await test('error: create_co_owner email "bad" -> INVALID_EMAIL', async () => {
    const args = { firstName: 'Bad', lastName: 'Email', unitId: apt.id, email: 'bad' };
    checkArgsAgainstSchema('create_co_owner', args, false);
    await expectError(client.callTool({ name: 'create_co_owner', arguments: args }), -32000, 'INVALID_EMAIL',
        d => assert.equal(d.field, '/email'));
});

await test('error: create_unit duplicate number "101" -> DUPLICATE_UNIT_NUMBER', async () => {
    await expectError(client.callTool({ name: 'create_unit', arguments: { number: '101', type: 'apartment' } }),
        -32000, 'DUPLICATE_UNIT_NUMBER', d => assert.equal(d.field, '/number'));
});

await test('error: list_units pageSize 500 -> VALIDATION_FAILED with data.errors', async () => {
    checkArgsAgainstSchema('list_units', { pageSize: 500 }, false);
    await expectError(client.callTool({ name: 'list_units', arguments: { pageSize: 500 } }), -32000, 'VALIDATION_FAILED', d => {
        assert.ok(Array.isArray(d.errors) && d.errors.length >= 1, 'data.errors');
        assert.equal(d.errors[0].field, '/pageSize');
        assert.equal(typeof d.errors[0].reason, 'string');
    });
});

await test('error: create_unit pushing the sum to 105 -> FRACTION_SUM_OUT_OF_RANGE', async () => {
    await expectError(client.callTool({ name: 'create_unit', arguments: { number: 'X-1', type: 'storage', fractionPercent: 5 } }),
        -32000, 'FRACTION_SUM_OUT_OF_RANGE', d => {
            assert.equal(d.currentSum, 100);
            assert.equal(d.resultingSum, 105);
        });
    const s = await call(client, 'get_fraction_sum', {});
    assert.equal(s.unitCount, 12, 'refused calls changed nothing');
    assert.equal(s.sum, 100);
});

// ---------------------------------------------------------------------------------------------
// Water heaters, insurance, contractors: each tool once, and their codes, as the SDK sees them.

await test('the demo\'s registers: 6 water heaters (1 overdue, 1 due soon), 3 policies, 3 contractors', async () => {
    const heaters = await call(client, 'list_water_heaters', {});
    assert.equal(heaters.pagination.total, 6);
    assert.deepEqual(heaters.data.slice(0, 2).map(w => [w.unitNumber, w.status]), [['101', 'overdue'], ['102', 'due-soon']]);
    const policies = await call(client, 'list_insurance_policies', {});
    assert.equal(policies.pagination.total, 3);
    assert.equal((await call(client, 'list_insurance_policies', { appraisalOutdated: true })).data[0].kind, 'property');
    assert.equal((await call(client, 'list_contractors', {})).pagination.total, 3);
    assert.equal((await call(client, 'list_contractors', { insuranceExpired: true })).data[0].name, 'Toitures Gagnon et fils');
});

let heater;
await test('create_water_heater in 302: replaceBy and status from the manufacture date', async () => {
    const args = { unitId: apt.id, brand: 'Giant', capacityLitres: 151, manufactureDate: '2015-03-01',
                   installDate: '2015-06-01', hasDrainPan: true };
    checkArgsAgainstSchema('create_water_heater', args, true);
    heater = await call(client, 'create_water_heater', args);
    assert.equal(heater.unitNumber, '302');
    assert.equal(heater.replacementAgeYears, 10);
    assert.equal(heater.replaceBy, '2025-03-01');
    assert.equal(heater.status, 'overdue');
});

await test('update_water_heater and list_water_heaters by status', async () => {
    const today = new Date();
    const made = `${today.getFullYear() - 5}-01-01`;
    const u = await call(client, 'update_water_heater', { id: heater.id, manufactureDate: made, installDate: null });
    assert.equal(u.status, 'ok');
    assert.equal(u.brand, 'Giant', 'other fields kept');
    const ok = await call(client, 'list_water_heaters', { status: 'ok', unitId: apt.id });
    assert.ok(ok.data.some(w => w.id === heater.id));
    assert.ok(ok.data.every(w => w.unitNumber === '302' && w.status === 'ok'));
    assert.equal((await call(client, 'list_water_heaters', { status: 'overdue', unitId: apt.id })).pagination.total, 0);
});

await test('error: create_water_heater installed before made -> INVALID_DATE_RANGE', async () => {
    await expectError(client.callTool({ name: 'create_water_heater',
        arguments: { unitId: null, manufactureDate: '2020-01-01', installDate: '2019-01-01' } }),
        -32000, 'INVALID_DATE_RANGE', d => assert.equal(d.field, '/installDate'));
});

await test('delete_water_heater archives; then WATER_HEATER_NOT_FOUND', async () => {
    const d = await call(client, 'delete_water_heater', { id: heater.id });
    assert.equal(typeof d.deletedAt, 'string');
    await expectError(client.callTool({ name: 'delete_water_heater', arguments: { id: heater.id } }),
        -32000, 'WATER_HEATER_NOT_FOUND', d2 => assert.equal(d2.field, '/id'));
});

let policy;
await test('create_insurance_policy: coverages in cents, flags', async () => {
    const start = new Date(Date.now() - 300 * 86400000).toISOString().slice(0, 10);
    const end = new Date(Date.now() + 30 * 86400000).toISOString().slice(0, 10);
    policy = await call(client, 'create_insurance_policy', {
        kind: 'property', insurer: 'Intact Assurance', broker: 'BFL Canada', policyNumber: 'INT-2026-001',
        startDate: start, endDate: end, lastAppraisalDate: '2019-04-15',
        coverages: [{ peril: 'incendie', amountCents: 2500000000, deductibleCents: 2500000 }, { peril: 'dégât d\'eau', amountCents: 2500000000 }],
    });
    assert.equal(policy.status, 'active');
    assert.equal(policy.expiringSoon, true);
    assert.equal(policy.appraisalOutdated, true);
    assert.equal(policy.appraisalDueBy, '2024-04-15');
    assert.equal(policy.coverages[1].deductibleCents, 0);
});

await test('update_insurance_policy and list_insurance_policies by flag', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const p = await call(client, 'update_insurance_policy', { id: policy.id, lastAppraisalDate: today });
    assert.equal(p.appraisalOutdated, false);
    const soon = await call(client, 'list_insurance_policies', { expiringSoon: true });
    assert.ok(soon.data.some(x => x.id === policy.id));
    assert.equal((await call(client, 'list_insurance_policies', { appraisalOutdated: true })).data.some(x => x.id === policy.id), false);
});

await test('error: insurance -> INVALID_DATE_RANGE, DUPLICATE_PERIL', async () => {
    await expectError(client.callTool({ name: 'update_insurance_policy', arguments: { id: policy.id, endDate: '2000-01-01' } }),
        -32000, 'INVALID_DATE_RANGE', d => assert.equal(d.field, '/endDate'));
    await expectError(client.callTool({ name: 'update_insurance_policy', arguments: { id: policy.id,
        coverages: [{ peril: 'Fire', amountCents: 1 }, { peril: 'fire ', amountCents: 2 }] } }),
        -32000, 'DUPLICATE_PERIL', d => assert.equal(d.field, '/coverages/1/peril'));
});

await test('delete_insurance_policy archives', async () => {
    const d = await call(client, 'delete_insurance_policy', { id: policy.id });
    assert.equal(typeof d.deletedAt, 'string');
    assert.equal((await call(client, 'list_insurance_policies', {})).data.some(x => x.id === policy.id), false);
});

let contractor;
await test('create_contractor: RBQ and NEQ normalized; list_contractors by name and trade', async () => {
    contractor = await call(client, 'create_contractor', {
        name: 'Électricité Dionne', trade: 'Électricien', email: 'info@electricite-dionne.example',
        rbqLicence: '5679 4321 02', neq: '2261-234-567', insuranceExpiry: '2099-12-31',
    });
    assert.equal(contractor.rbqLicence, '5679-4321-02');
    assert.equal(contractor.neq, '2261234567');
    assert.equal(contractor.insuranceExpired, false);
    assert.deepEqual((await call(client, 'list_contractors', { search: 'electricite dio' })).data.map(c => c.id), [contractor.id]);
    assert.deepEqual((await call(client, 'list_contractors', { trade: 'electri' })).data.map(c => c.id), [contractor.id]);
});

await test('update_contractor, and its codes: INVALID_NEQ, INVALID_RBQ_LICENCE, DUPLICATE_NEQ, INVALID_EMAIL', async () => {
    const c = await call(client, 'update_contractor', { id: contractor.id, phone: '+15145550199', professionalOrder: null });
    assert.equal(c.phone, '+15145550199');
    await expectError(client.callTool({ name: 'update_contractor', arguments: { id: contractor.id, neq: '12345' } }),
        -32000, 'INVALID_NEQ', d => assert.equal(d.field, '/neq'));
    await expectError(client.callTool({ name: 'create_contractor', arguments: { name: 'X', trade: 'y', rbqLicence: 'ABC' } }),
        -32000, 'INVALID_RBQ_LICENCE', d => assert.equal(d.field, '/rbqLicence'));
    await expectError(client.callTool({ name: 'create_contractor', arguments: { name: 'X', trade: 'y', neq: '2261234567' } }),
        -32000, 'DUPLICATE_NEQ', d => assert.equal(d.field, '/neq'));
    await expectError(client.callTool({ name: 'create_contractor', arguments: { name: 'X', trade: 'y', email: 'bad' } }),
        -32000, 'INVALID_EMAIL', d => assert.equal(d.field, '/email'));
});

await test('delete_contractor archives; then CONTRACTOR_NOT_FOUND', async () => {
    await call(client, 'delete_contractor', { id: contractor.id });
    await expectError(client.callTool({ name: 'update_contractor', arguments: { id: contractor.id, phone: null } }),
        -32000, 'CONTRACTOR_NOT_FOUND', d => assert.equal(d.field, '/id'));
});

await test('error: unknown tool -> -32602 UNKNOWN_TOOL', async () => {
    await expectError(client.callTool({ name: 'no_such_tool', arguments: {} }), -32602, 'UNKNOWN_TOOL');
});

await test('unknown method (server/discover) -> -32601 at once', async () => {
    let err;
    try {
        await client.request({ method: 'server/discover', params: {} }, EmptyResultSchema, { timeout: REQUEST_TIMEOUT_MS });
    } catch (e) {
        err = e;
    }
    assert.ok(err instanceof McpError, `expected McpError, got ${err}`);
    assert.equal(err.code, -32601);
});

// decisions.md §9: a cancelled call is honoured. Whether the cancellation reaches the server
// before the call ends is a race, so either outcome is accepted, but the bulk call is one
// transaction: all 500 rows or none, and a cancelled call sends no response.
await test('cancellation of bulk_create_co_owners (notifications/cancelled)', async () => {
    const rows = [];
    for (let i = 0; i < 500; i++) rows.push({ firstName: `Cancel${i}`, lastName: 'Interopcancel', unitId: apt.id });
    const controller = new AbortController();
    const received = main.transport.received.length;
    let err;
    try {
        await client.callTool({ name: 'bulk_create_co_owners', arguments: { coOwners: rows } }, undefined, {
            timeout: REQUEST_TIMEOUT_MS, signal: controller.signal, onprogress: () => controller.abort('test cancels'),
        });
    } catch (e) {
        err = e;
    }
    assert.ok(err !== undefined, 'the aborted call rejects');
    assert.deepEqual(await client.ping({ timeout: REQUEST_TIMEOUT_MS }), {}, 'server answers after the cancellation');
    const total = (await call(client, 'list_co_owners', { search: 'interopcancel', pageSize: 1 })).pagination.total;
    assert.ok(total === 0 || total === 500, `all or nothing, got ${total} rows`);
    const id = lastCallId(main.transport, 'bulk_create_co_owners');
    assert.ok(main.transport.sent.some(m => m.method === 'notifications/cancelled' && m.params.requestId === id),
        'the SDK sent notifications/cancelled');
    const lateResponse = main.transport.about(id, received).some(m => m.id === id);
    forgiveLateProgress(main, id);
    if (total === 0) {
        assert.ok(!lateResponse, 'no response to a call the server cancelled');
    } else {
        // The call ended before the cancellation arrived; the SDK reports the late response
        // through onerror, which is legitimate here.
        main.errors.splice(0, main.errors.length,
            ...main.errors.filter(e => !/unknown message ID/.test(String(e))));
    }
    log(`     (cancellation ${total === 0 ? 'honoured: nothing created' : 'arrived after the call ended'})`);
});

await test('main connection still healthy after the errors', async () => {
    assert.deepEqual(await client.ping({ timeout: REQUEST_TIMEOUT_MS }), {});
});

// ---------------------------------------------------------------------------------------------
// Second client: no credentials (a second server on the same database, main still running)

let anon;
await test('no credentials: initialize and tools/list work', async () => {
    anon = await connect('no-credentials');
    const res = await anon.client.listTools(undefined, { timeout: REQUEST_TIMEOUT_MS });
    assert.deepEqual(res.tools.map(t => t.name).sort(), EXPECTED_TOOLS);
});

await test('no credentials: tools/call -> -32000 NOT_AUTHENTICATED', async () => {
    assert.ok(anon, 'connected');
    await expectError(anon.client.callTool({ name: 'list_units', arguments: {} }), -32000, 'NOT_AUTHENTICATED');
    await expectError(anon.client.callTool({ name: 'get_fraction_sum', arguments: {} }), -32000, 'NOT_AUTHENTICATED');
});

// ---------------------------------------------------------------------------------------------
// Third client: tools/list in pages of 5

let paged;
await test('tools/list pagination (--tools-page-size 5): every tool exactly once', async () => {
    paged = await connect('paged', { apiKey, extraArgs: ['--tools-page-size', '5'] });
    const names = [];
    const pageSizes = [];
    let cursor;
    for (let pages = 0; ; pages++) {
        assert.ok(pages < 20, 'pagination terminates');
        const res = await paged.client.listTools(cursor === undefined ? undefined : { cursor }, { timeout: REQUEST_TIMEOUT_MS });
        assert.ok(res.tools.length <= 5, `page of ${res.tools.length} tools`);
        pageSizes.push(res.tools.length);
        names.push(...res.tools.map(t => t.name));
        if (res.nextCursor === undefined) break;
        assert.equal(typeof res.nextCursor, 'string');
        cursor = res.nextCursor;
    }
    const expectedPages = [];
    for (let left = EXPECTED_TOOLS.length; left > 0; left -= 5) expectedPages.push(Math.min(5, left));
    assert.deepEqual(pageSizes, expectedPages);
    assert.equal(new Set(names).size, names.length, `duplicates: ${names}`);
    assert.deepEqual([...names].sort(), EXPECTED_TOOLS);
    // The paged server serves calls on the same database too, and sees main's writes.
    const s = await call(paged.client, 'get_fraction_sum', {});
    assert.equal(s.unitCount, 12);
});

await test('tools/list with a bogus cursor -> -32602', async () => {
    assert.ok(paged, 'connected');
    await expectError(paged.client.listTools({ cursor: 'bogus' }, { timeout: REQUEST_TIMEOUT_MS }), -32602, 'Invalid params');
});

// ---------------------------------------------------------------------------------------------
// Close everything

for (const [label, conn] of [['main', main], ['no-credentials', anon], ['paged', paged]]) {
    if (!conn) continue;
    await test(`close ${label}: server exits 0 on end of stdin, no protocol errors`, async () => {
        await closeCleanly(conn);
    });
}

finish();
