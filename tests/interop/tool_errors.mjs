#!/usr/bin/env node
// Interop test of --tool-errors result (issue 16, point 6) and of tools/list filtered by the key:
// syndic-mcp on stdio driven by the official MCP TypeScript SDK client.
//
// Usage: node tests/interop/tool_errors.mjs /path/to/syndic-mcp
//
// The SDK client caches every tool's outputSchema at listTools() and checks each result's
// structuredContent against it, isError results included (typescript-sdk issue #1943): the
// server's isError results must therefore carry no structuredContent, and the client must hand
// them back (not throw) with the code readable in the text. Protocol errors stay McpErrors.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';

const bin = resolve(process.argv[2] ?? '../../build/syndic-mcp');
const run = promisify(execFile);
const tmp = mkdtempSync(join(tmpdir(), 'syndic-tool-errors-'));
const dbPath = join(tmp, 'syndic.db');
let passed = 0;
let failed = 0;

async function test(name, fn) {
    try {
        await fn();
        passed++;
        console.log(`ok   ${name}`);
    } catch (err) {
        failed++;
        console.log(`FAIL ${name}\n     ${(err && err.stack) || err}`);
    }
}

async function connect(apiKey, extraArgs = [], extraEnv = {}) {
    const transport = new StdioClientTransport({
        command: bin, args: ['serve', '--db', dbPath, ...extraArgs],
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', SYNDIC_API_KEY: apiKey, ...extraEnv }, stderr: 'ignore',
    });
    const client = new Client({ name: 'syndic-tool-errors', version: '1.0.0' }, { capabilities: {} });
    await client.connect(transport, { timeout: 10_000 });
    return client;
}

const timer = setTimeout(() => { console.log('FAIL overall time limit of 30 s exceeded'); process.exit(1); }, 30_000);
try {
    const admin = JSON.parse((await run(bin, ['demo', '--json', '--db', dbPath])).stdout).apiKey;
    const reader = JSON.parse((await run(bin, ['keys', 'create', '--db', dbPath, '--role', 'member', '--scopes',
        'read:co-owners', '--name', 'reader', '--json'])).stdout).apiKey;

    const client = await connect(admin, ['--tool-errors', 'result']);
    const { tools } = await client.listTools();  // the SDK caches each outputSchema's validator here
    await test('the tools have output schemas the SDK will check', async () => {
        assert.ok(tools.find(t => t.name === 'get_unit')?.outputSchema, 'get_unit has no outputSchema');
    });
    await test('--tool-errors result: the SDK hands back the isError result, the code in its text', async () => {
        const r = await client.callTool({ name: 'get_unit', arguments: { id: 'no-such-unit' } });
        assert.equal(r.isError, true);
        assert.match(r.content[0].text, /^UNIT_NOT_FOUND: .+\(field \/id\)$/);
        const data = JSON.parse(r.content[1].text);
        assert.equal(data.code, 'UNIT_NOT_FOUND');
        assert.equal(data.field, '/id');
    });
    await test('...a schema refusal carries its field errors', async () => {
        const r = await client.callTool({ name: 'create_unit', arguments: { type: 'storage' } });
        assert.equal(r.isError, true);
        const data = JSON.parse(r.content[1].text);
        assert.equal(data.code, 'VALIDATION_FAILED');
        assert.ok(data.errors.some(e => e.field === '/number'), JSON.stringify(data));
    });
    await test('...a success still passes the SDK\'s outputSchema check', async () => {
        const r = await client.callTool({ name: 'list_units', arguments: {} });
        assert.ok(!r.isError);
        assert.ok(r.structuredContent.data.length > 0);
    });
    await test('...an unknown tool is still a JSON-RPC error (McpError -32602)', async () => {
        await assert.rejects(client.callTool({ name: 'launch_rocket', arguments: {} }),
            e => e instanceof McpError && e.code === -32602);
    });
    await client.close();

    const byEnv = await connect(admin, [], { SYNDIC_TOOL_ERRORS: 'result' });
    await test('SYNDIC_TOOL_ERRORS=result: the same isError result', async () => {
        const r = await byEnv.callTool({ name: 'get_unit', arguments: { id: 'x' } });
        assert.equal(r.isError, true);
        assert.match(r.content[0].text, /^UNIT_NOT_FOUND: /);
    });
    await byEnv.close();

    const plain = await connect(admin);
    await test('by default a refusal is an McpError whose message is the code', async () => {
        await assert.rejects(plain.callTool({ name: 'get_unit', arguments: { id: 'x' } }),
            e => e instanceof McpError && e.code === -32000 && e.message.includes('UNIT_NOT_FOUND'));
    });
    await plain.close();

    const limited = await connect(reader, ['--tools-page-size', '2']);
    await test('a read:co-owners key: listTools (every page) shows only its tools', async () => {
        const names = [];
        let cursor;
        do {
            const page = await limited.listTools(cursor ? { cursor } : undefined);
            names.push(...page.tools.map(t => t.name));
            cursor = page.nextCursor;
        } while (cursor);
        assert.deepEqual(names.sort(), ['get_co_owner', 'get_fraction_sum', 'get_unit', 'list_co_owners', 'list_units']);
    });
    await test('...a tool it does not see is refused INSUFFICIENT_SCOPE, not unknown', async () => {
        await assert.rejects(limited.callTool({ name: 'create_unit', arguments: { number: 'Z', type: 'storage' } }),
            e => e instanceof McpError && e.message.includes('INSUFFICIENT_SCOPE'));
    });
    await limited.close();
} catch (err) {
    failed++;
    console.log(`FAIL the run: ${(err && err.stack) || err}`);
} finally {
    clearTimeout(timer);
    rmSync(tmp, { recursive: true, force: true });
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
