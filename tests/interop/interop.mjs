#!/usr/bin/env node
// Interop test: syndic-mcp (stdio) driven by the official MCP TypeScript SDK client.
//
// Usage: node tests/interop/interop.mjs /path/to/syndic-mcp
//
// Creates a demo database in a temporary directory (tests/interop/common.mjs), starts the server
// three times on it (with an admin key, without credentials, and with --tools-page-size 5), and
// checks the handshake, the tool descriptors, the units, declaration and co-owner reads, the error
// mapping of decisions.md §3, an unknown tool and an unknown method (§9), tools/list pagination
// and a clean shutdown. The meetings (interop_meetings.mjs) and the other records with progress and
// cancellation (interop_records.mjs) have their own files. Prints "N passed, M failed" last and
// exits non-zero on any failure or when the whole run exceeds its time limit.

import assert from 'node:assert/strict';
import { EmptyResultSchema, LATEST_PROTOCOL_VERSION, McpError, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';

import {
    DEMO_UNITS, EXPECTED_TOOLS, READ_ONLY_TOOLS, REQUEST_TIMEOUT_MS, ajv, apiKey,
    call, checkArgsAgainstSchema, client, closeAndFinish, connect, deepFindKey,
    expectError, finish, inputValidators, main, test,
} from './common.mjs';


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
        for (const h of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint']) {
            assert.equal(typeof a[h], 'boolean', `${where}: annotations.${h}`);
        }
        const readOnly = /^(get|list)_/.test(t.name) || READ_ONLY_TOOLS.has(t.name);
        assert.equal(a.readOnlyHint, readOnly, `${where}: readOnlyHint`);
        // A read is not destructive; a write that removes or overwrites is (the whole rule, by verb
        // and by tool, is tests/unit/annotations_test.cpp).
        if (readOnly || /^(delete|archive|revoke|update|end)_/.test(t.name)) {
            assert.equal(a.destructiveHint, !readOnly, `${where}: destructiveHint`);
        }
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
        assert.ok(pages <= Math.ceil(EXPECTED_TOOLS.length / 5), 'pagination terminates');
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

await closeAndFinish([['main', main], ['no-credentials', anon], ['paged', paged]]);
