#!/usr/bin/env node
// Interop test of the HTTP bridge: the official MCP TypeScript SDK client, over its Streamable
// HTTP transport, against `syndic-mcp http` on 127.0.0.1 (a free port, a demo database in a
// temporary folder). Checks the handshake, the catalogue, a call with an API key (the SDK
// validates structuredContent against the outputSchema), a refused call as a JSON-RPC error, a
// client without a key refused at its first tool call, and a clean SIGTERM. Prints
// "N passed, M failed" last.
//
// Usage: node tests/interop/http_interop.mjs /path/to/syndic-mcp

import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';

const binary = resolve(process.argv[2] ?? 'build/syndic-mcp');
const tmp = mkdtempSync(join(tmpdir(), 'syndic-http-interop-'));
const db = join(tmp, 'syndic.db');
// The tools the server's registry offers, every module (`syndic-mcp tools --json`): nothing kept by hand.
const EXPECTED_TOOLS = (() => {
    for (const args of [['tools', '--json', '--modules', 'all'], ['tools', '--json']]) {
        try {
            return JSON.parse(execFileSync(binary, args, { stdio: ['ignore', 'pipe', 'ignore'] }).toString()).map(t => t.name).sort();
        } catch { /* try without --modules all */ }
    }
    throw new Error(`${binary} tools --json failed`);
})();
let passed = 0;
let failed = 0;

async function test(name, fn) {
    try {
        await fn();
        passed++;
        console.log(`ok   ${name}`);
    } catch (e) {
        failed++;
        console.log(`FAIL ${name}: ${e?.stack ?? e}`);
    }
}

const key = execFileSync(binary, ['demo', '--db', db], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
const server = spawn(binary, ['http', '--db', db, '--listen', '127.0.0.1:0', '--modules', 'all'], { stdio: ['ignore', 'ignore', 'pipe'] });
let stderr = '';
const exited = new Promise((done) => server.on('exit', (code, signal) => done({ code, signal })));
const base = await new Promise((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`the bridge did not start:\n${stderr}`)), 10_000);
    server.stderr.on('data', (chunk) => {
        stderr += chunk;
        const m = stderr.match(/serving (http\S+)/);
        if (m) {
            clearTimeout(timer);
            done(m[1]);
        }
    });
});
const endpoint = new URL(`${base}/mcp`);

function connect(headers) {
    const client = new Client({ name: 'syndic-http-interop', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(endpoint, { requestInit: { headers } });
    return { client, transport, ready: client.connect(transport) };
}

const withKey = connect({ Authorization: `Bearer ${key}` });
await test('connect with an API key: initialize over Streamable HTTP', async () => {
    await withKey.ready;
    assert.equal(withKey.client.getServerVersion()?.name, 'syndic-mcp');
    assert.ok(withKey.client.getServerCapabilities()?.tools);
    assert.equal(withKey.transport.sessionId, undefined); // stateless
});

await test('tools/list: every tool of the registry', async () => {
    const { tools } = await withKey.client.listTools();
    assert.deepEqual(tools.map(t => t.name).sort(), EXPECTED_TOOLS);
    assert.ok(tools.every((t) => t.inputSchema && t.outputSchema));
});

await test('tools/call: the demo building sums to 100 (output checked by the SDK)', async () => {
    const result = await withKey.client.callTool({ name: 'get_fraction_sum', arguments: {} });
    assert.equal(result.structuredContent.sum, 100);
    assert.equal(result.structuredContent.unitCount, 12);
    assert.deepEqual(JSON.parse(result.content[0].text), result.structuredContent);
});

await test('tools/call: a write, then the record read back', async () => {
    const units = await withKey.client.callTool({ name: 'list_units', arguments: { search: '302' } });
    const unit = units.structuredContent.data.find((u) => u.number === '302');
    const created = await withKey.client.callTool({
        name: 'create_co_owner', arguments: { firstName: 'Paul', lastName: 'Gauthier', unitId: unit.id },
    });
    const read = await withKey.client.callTool({ name: 'get_co_owner', arguments: { id: created.structuredContent.id } });
    assert.equal(read.structuredContent.lastName, 'Gauthier');
});

await test('tools/call refused: UNIT_NOT_FOUND as a JSON-RPC error', async () => {
    await assert.rejects(
        withKey.client.callTool({ name: 'get_unit', arguments: { id: 'no-such-unit' } }),
        (e) => e instanceof McpError && e.code === -32000 && /UNIT_NOT_FOUND/.test(e.message) && typeof e.data?.detail === 'string',
    );
});

const anonymous = connect({});
await test('without a key: initialize and tools/list work, tools/call is refused with 401', async () => {
    await anonymous.ready;
    assert.equal((await anonymous.client.listTools()).tools.length, EXPECTED_TOOLS.length);
    await assert.rejects(anonymous.client.callTool({ name: 'get_fraction_sum', arguments: {} }), (e) => e?.code === 401 && /NOT_AUTHENTICATED/.test(e.message));
});

await withKey.client.close().catch(() => {});
await anonymous.client.close().catch(() => {});
server.kill('SIGTERM');
await test('SIGTERM: the bridge exits 0, never showing the key', async () => {
    const { code } = await exited;
    assert.equal(code, 0);
    assert.ok(!stderr.includes(key), 'the key appears on stderr');
    assert.match(stderr, /access \S+ POST \/api\/mcp 200 [\d.]+ms key=[0-9a-f-]{36}/);
});

rmSync(tmp, { recursive: true, force: true });
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
