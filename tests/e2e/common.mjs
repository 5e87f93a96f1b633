// What the two end-to-end tests of the OAuth flow share: a temporary database with the demo
// syndicate and one user, the bridge on a free port of 127.0.0.1, a tiny callback server that
// records the queries it receives (the client's redirect URI), PKCE, dynamic registration, checks
// counted and reported as "N passed, M failed".
//
// The npm packages (the MCP TypeScript SDK, playwright-core) are those of tests/interop, installed
// by `npm ci` there: fromInterop() imports one of their files by path, since Node looks for
// packages only in the node_modules folders above the importing file.

import { execFileSync, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const interopModules = fileURLToPath(new URL('../interop/node_modules/', import.meta.url));

export function fromInterop(path) {
    return import(pathToFileURL(join(interopModules, path)).href);
}

export const user = { email: 'marie@example.ca', name: 'Marie Tremblay', password: 'correct horse battery' };

// Checks: each one is named, runs once, and is counted; a failed one does not stop the others.
let passed = 0;
let failed = 0;
export async function check(name, fn) {
    const started = Date.now();
    try {
        await fn();
        passed++;
        console.log(`ok   ${name} (${Date.now() - started} ms)`);
    } catch (e) {
        failed++;
        console.log(`FAIL ${name}: ${e?.stack ?? e}`);
    }
}
export function failures() {
    return failed;
}
export function summary() {
    return `${passed} passed, ${failed} failed`;
}

// A temporary folder with a demo database and the user; removed by cleanup() unless a check
// failed or SYNDIC_E2E_KEEP is set (the folder is then named on stdout).
export function makeWorld(binary, prefix) {
    const tmp = mkdtempSync(join(tmpdir(), prefix));
    const db = join(tmp, 'syndic.db');
    execFileSync(binary, ['demo', '--db', db], { stdio: ['ignore', 'ignore', 'ignore'] });
    execFileSync(binary, ['users', 'create', '--db', db, '--email', user.email, '--name', user.name, '--role', 'admin'], {
        input: `${user.password}\n`,
        stdio: ['pipe', 'ignore', 'pipe'],
    });
    return {
        tmp,
        db,
        cleanup() {
            if (failed || process.env.SYNDIC_E2E_KEEP) console.log(`kept ${tmp}`);
            else rmSync(tmp, { recursive: true, force: true });
        },
    };
}

// `syndic-mcp http` on 127.0.0.1 port 0; resolves once it prints `serving <base url>`.
export async function startBridge(binary, db) {
    const server = spawn(binary, ['http', '--db', db, '--listen', '127.0.0.1:0'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    const exited = new Promise((done) => server.on('exit', (code, signal) => done({ code, signal })));
    // Never left behind, even when the test itself dies (an uncaught error, a closed stdout).
    const leftBehind = () => server.exitCode === null && server.signalCode === null && server.kill('SIGKILL');
    process.on('exit', leftBehind);
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
        server.on('exit', () => fail(new Error(`the bridge exited:\n${stderr}`)));
    });
    return {
        base,
        log: () => stderr,
        async stop() {
            server.kill('SIGTERM');
            return exited;
        },
    };
}

// The client's redirect URI: http://127.0.0.1:<port>/callback. Records each query it receives.
export async function startCallbackServer() {
    const received = [];
    const waiting = [];
    const server = createServer((req, res) => {
        const url = new URL(req.url, 'http://127.0.0.1');
        if (url.pathname === '/callback') {
            received.push(url.searchParams);
            waiting.splice(0).forEach((w) => w());
        }
        res.writeHead(url.pathname === '/callback' ? 200 : 404, { 'Content-Type': 'text/html; charset=utf-8' });
        res.end('<!DOCTYPE html><title>callback</title><p>Received.</p>');
    });
    await new Promise((done) => server.listen(0, '127.0.0.1', done));
    return {
        url: `http://127.0.0.1:${server.address().port}/callback`,
        received,
        // The query of the next callback after `count` were received.
        async next(count, timeoutMs = 10_000) {
            const deadline = Date.now() + timeoutMs;
            while (received.length <= count) {
                if (Date.now() > deadline) throw new Error('no callback received');
                await new Promise((done) => {
                    waiting.push(done);
                    setTimeout(done, 100);
                });
            }
            return received[count];
        },
        close() {
            server.closeAllConnections?.();
            return new Promise((done) => server.close(done));
        },
    };
}

export function base64url(bytes) {
    return Buffer.from(bytes).toString('base64url');
}

export function pkce() {
    const verifier = base64url(randomBytes(32));
    const challenge = base64url(createHash('sha256').update(verifier).digest());
    return { verifier, challenge };
}

export function randomState() {
    return base64url(randomBytes(16));
}

export async function registerPublicClient(base, redirectUri, clientName) {
    const res = await fetch(`${base}/oauth/register`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
            client_name: clientName,
            redirect_uris: [redirectUri],
            token_endpoint_auth_method: 'none',
            grant_types: ['authorization_code', 'refresh_token'],
            response_types: ['code'],
        }),
    });
    const body = await res.json();
    if (res.status !== 201) throw new Error(`registration: ${res.status} ${JSON.stringify(body)}`);
    return body;
}

export function authorizeUrl(base, { clientId, redirectUri, scope, state, challenge, extra = {} }) {
    const url = new URL(`${base}/oauth/authorize`);
    const params = {
        response_type: 'code',
        client_id: clientId,
        redirect_uri: redirectUri,
        state,
        code_challenge: challenge,
        code_challenge_method: 'S256',
        resource: `${base}/mcp`,
        ...extra,
    };
    if (scope) params.scope = scope;
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    return url;
}

export async function tokenRequest(base, fields, headers = {}) {
    const res = await fetch(`${base}/oauth/token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams(fields).toString(),
    });
    return { status: res.status, headers: res.headers, body: await res.json() };
}

export function jwtParts(token) {
    const [header, payload] = token.split('.');
    return {
        header: JSON.parse(Buffer.from(header, 'base64url').toString()),
        claims: JSON.parse(Buffer.from(payload, 'base64url').toString()),
    };
}

// One JSON-RPC tools/call at <base>/mcp with a bearer token, by plain fetch (the bridge is
// stateless), so that the status and WWW-Authenticate can be read.
export async function rawToolCall(base, token, name, args = {}) {
    const res = await fetch(`${base}/mcp`, {
        method: 'POST',
        headers: {
            'Content-Type': 'application/json',
            Accept: 'application/json, text/event-stream',
            'MCP-Protocol-Version': '2025-06-18',
            ...(token ? { Authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
    });
    return { status: res.status, wwwAuthenticate: res.headers.get('www-authenticate'), body: await res.json() };
}
