#!/usr/bin/env node
// End-to-end test of MCP authorization with the official MCP TypeScript SDK client: its
// StreamableHTTPClientTransport with an authProvider (an OAuthClientProvider kept in memory)
// against `syndic-mcp http` on 127.0.0.1 (a temporary demo database and one user). A tool call
// is refused with 401; the SDK reads the protected-resource metadata, then the authorization
// server's, registers by DCR and sends its authorization URL (PKCE S256) to the provider, which
// acts as the person with plain HTTP: the sign-in form, then Allow on the consent form with its
// hidden fields and CSRF token; the code from the redirect goes to finishAuth, and the call is
// made again. Then: the SDK refreshes an access token the server refuses, the old refresh token
// is refused afterwards and its family revoked, a revoked access token is refused, and a token
// without the scope gets 403 insufficient_scope naming it. Prints one line per check, then
// "N passed, M failed".
//
// Usage: node tests/e2e/sdk_oauth.mjs /path/to/syndic-mcp

import assert from 'node:assert/strict';
import { resolve } from 'node:path';

import {
    authorizeUrl, check, failures, fromInterop, jwtParts, makeWorld, pkce, randomState, rawToolCall, registerPublicClient, startBridge,
    startCallbackServer, summary, tokenRequest, user,
} from './common.mjs';

const binary = resolve(process.argv[2] ?? 'build/syndic-mcp');
const { Client } = await fromInterop('@modelcontextprotocol/sdk/dist/esm/client/index.js');
const { StreamableHTTPClientTransport } = await fromInterop('@modelcontextprotocol/sdk/dist/esm/client/streamableHttp.js');
const { UnauthorizedError } = await fromInterop('@modelcontextprotocol/sdk/dist/esm/client/auth.js');

const started = Date.now();
const world = makeWorld(binary, 'syndic-e2e-sdk-');
const bridge = await startBridge(binary, world.db);
const callback = await startCallbackServer();
const base = bridge.base;
const endpoint = new URL(`${base}/mcp`);

// ---- The person, by plain HTTP: a cookie jar of one cookie, forms read from the pages. ----------

const unescape = (s) => s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

// The forms of a page: their action, method and fields (hidden inputs, and the buttons' name/value).
function formsOf(html) {
    return [...html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)].map(([, attrs, inner]) => ({
        action: unescape(attrs.match(/action="([^"]*)"/)?.[1] ?? ''),
        method: attrs.match(/method="([^"]*)"/)?.[1] ?? 'get',
        hidden: Object.fromEntries([...inner.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)]
            .map(([, n, v]) => [unescape(n), unescape(v)])),
        buttons: [...inner.matchAll(/<button\b[^>]*name="([^"]*)" value="([^"]*)"/g)].map(([, n, v]) => `${n}=${v}`),
        inputs: [...inner.matchAll(/<input\b[^>]*name="([^"]*)"/g)].map(([, n]) => unescape(n)),
    }));
}

class Person {
    cookie = '';
    pages = []; // the titles seen, in order

    async request(url, init = {}) {
        const res = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers ?? {}), ...(this.cookie ? { Cookie: this.cookie } : {}) } });
        const set = res.headers.get('set-cookie');
        if (set) {
            const [pair] = set.split(';');
            this.cookie = pair.endsWith('=') ? '' : pair;
            this.setCookie = set;
        }
        const html = res.headers.get('content-type')?.startsWith('text/html') ? await res.text() : '';
        const title = html.match(/<h1>([^<]*)<\/h1>/)?.[1];
        if (title) this.pages.push(unescape(title));
        return { res, html };
    }

    post(url, fields) {
        return this.request(url, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
    }

    // From an authorization URL to the redirect's query: signs in when asked, then allows (or
    // denies). Each page is checked on the way.
    async authorize(authorizationUrl, decision = 'allow') {
        let { res, html } = await this.request(authorizationUrl);
        assert.equal(res.status, 200, `authorize: ${res.status} ${html}`);
        let [form] = formsOf(html);
        if (form.inputs.includes('password')) {
            assert.ok(form.action.endsWith('/oauth/signin'), form.action);
            ({ res, html } = await this.post(new URL(form.action, authorizationUrl), { ...form.hidden, email: user.email, password: user.password }));
            assert.equal(res.status, 303, `sign-in: ${res.status} ${html}`);
            assert.ok(this.cookie.startsWith('syndic_session='), 'no session cookie after signing in');
            ({ res, html } = await this.request(new URL(res.headers.get('location'), authorizationUrl)));
            assert.equal(res.status, 200);
            [form] = formsOf(html);
        }
        assert.ok(form.buttons.includes('decision=allow') && form.buttons.includes('decision=deny'), `no consent form: ${html}`);
        assert.ok(form.hidden.csrf_token, 'the consent form has no csrf_token');
        ({ res } = await this.post(new URL(form.action, authorizationUrl), { ...form.hidden, decision }));
        assert.equal(res.status, 303);
        const location = new URL(res.headers.get('location'));
        // Follow the redirect to the callback server, as a browser would.
        const count = callback.received.length;
        await fetch(location);
        assert.deepEqual(Object.fromEntries(await callback.next(count)), Object.fromEntries(location.searchParams));
        return location;
    }
}
const person = new Person();

// ---- The client application: an OAuthClientProvider in memory. -------------------------------

class MemoryProvider {
    constructor(redirectUrl) {
        this._redirectUrl = redirectUrl;
        this.authorizationUrls = [];
        this.redirects = []; // the redirect URI's query after each authorization
        this.savedTokens = [];
        this.states = [];
    }
    get redirectUrl() {
        return this._redirectUrl;
    }
    get clientMetadata() {
        return {
            client_name: 'Assistant MCP (SDK TypeScript)',
            redirect_uris: [this._redirectUrl],
            grant_types: ['authorization_code', 'refresh_token'],
            response_types: ['code'],
            token_endpoint_auth_method: 'none',
        };
    }
    state() {
        const state = randomState();
        this.states.push(state);
        return state;
    }
    clientInformation() {
        return this._client;
    }
    saveClientInformation(info) {
        this._client = info;
    }
    tokens() {
        return this._tokens;
    }
    saveTokens(tokens) {
        this._tokens = tokens;
        this.savedTokens.push(tokens);
    }
    saveCodeVerifier(verifier) {
        this._verifier = verifier;
    }
    codeVerifier() {
        return this._verifier;
    }
    // The user agent's part: the person signs in and allows; the code waits for finishAuth.
    async redirectToAuthorization(url) {
        this.authorizationUrls.push(url);
        this.redirects.push(await person.authorize(url));
    }
}

// Every request the SDK sends, with its answer's status (the transport's fetch is also the one
// its auth() uses for discovery, registration and tokens).
const sent = [];
async function recordingFetch(url, init) {
    const res = await fetch(url, init);
    const body = init?.body instanceof URLSearchParams ? init.body.toString() : typeof init?.body === 'string' ? init.body : '';
    sent.push({ method: init?.method ?? 'GET', url: String(url), status: res.status, body, authorization: new Headers(init?.headers).get('authorization') });
    return res;
}

// The requests since `from`, as 'METHOD path status', without the transport's optional GET of an
// SSE stream (sent on its own once initialized; the bridge answers 405, as it offers none).
function stepsSince(from) {
    return sent.slice(from).filter((r) => !(r.method === 'GET' && r.status === 405))
        .map((r) => `${r.method} ${new URL(r.url).pathname} ${r.status}`);
}

function connect(provider) {
    const client = new Client({ name: 'syndic-e2e-sdk', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(endpoint, { authProvider: provider, fetch: recordingFetch });
    return { client, transport, ready: client.connect(transport) };
}

const provider = new MemoryProvider(callback.url);
const first = connect(provider);

await check('connect: initialize without a token, as the bridge allows', async () => {
    await first.ready;
    assert.equal(first.client.getServerVersion()?.name, 'syndic-mcp');
});

await check('a tool call without a token: 401, then the SDK discovers (PRM, then AS), registers and redirects', async () => {
    const from = sent.length;
    await assert.rejects(first.client.callTool({ name: 'get_fraction_sum', arguments: {} }), (e) => e instanceof UnauthorizedError);
    assert.deepEqual(stepsSince(from), [
        'POST /api/mcp 401',
        'GET /.well-known/oauth-protected-resource/api/mcp 200',
        'GET /.well-known/oauth-authorization-server/api 200',
        'POST /api/oauth/register 201',
    ]);
    const registration = JSON.parse(sent.at(-1).body);
    assert.deepEqual(registration.redirect_uris, [callback.url]);
    assert.equal(provider.clientInformation()?.token_endpoint_auth_method, 'none');
    assert.equal(provider.clientInformation()?.client_secret, undefined);
});

await check('the authorization URL the SDK built: the endpoint, S256, the resource, every scope, the state', async () => {
    assert.equal(provider.authorizationUrls.length, 1);
    const url = provider.authorizationUrls[0];
    assert.equal(`${url.origin}${url.pathname}`, `${base}/oauth/authorize`);
    const p = url.searchParams;
    assert.equal(p.get('response_type'), 'code');
    assert.equal(p.get('client_id'), provider.clientInformation().client_id);
    assert.equal(p.get('redirect_uri'), callback.url);
    assert.equal(p.get('code_challenge_method'), 'S256');
    assert.match(p.get('code_challenge'), /^[A-Za-z0-9_-]{43}$/);
    assert.equal(p.get('resource'), `${base}/mcp`);
    const metadata = await (await fetch(`${new URL(base).origin}/.well-known/oauth-protected-resource/api/mcp`)).json();
    assert.equal(p.get('scope'), metadata.scopes_supported.join(' '));
    assert.equal(p.get('state'), provider.states[0]);
});

await check('the person signed in and allowed (plain HTTP): the redirect has code, the same state and iss', async () => {
    assert.deepEqual(person.pages, ['Connexion', "Autoriser l'accès ?"]);
    assert.match(person.setCookie, /HttpOnly/);
    assert.match(person.setCookie, /SameSite=Lax/);
    const query = provider.redirects[0].searchParams;
    assert.ok(query.get('code'));
    assert.equal(query.get('state'), provider.states[0]);
    assert.equal(query.get('iss'), base);
});

await check('finishAuth(code): the SDK exchanges the code (with the verifier and resource) for tokens', async () => {
    const from = sent.length;
    await first.transport.finishAuth(provider.redirects[0].searchParams.get('code'));
    // The SDK looks up the metadata again (it keeps no discovery state here), then posts the code.
    assert.deepEqual(stepsSince(from), [
        'GET /.well-known/oauth-protected-resource/api/mcp 200',
        'GET /.well-known/oauth-authorization-server/api 200',
        'POST /api/oauth/token 200',
    ]);
    const form = new URLSearchParams(sent.at(-1).body);
    assert.equal(form.get('grant_type'), 'authorization_code');
    assert.equal(form.get('code_verifier'), provider.codeVerifier());
    assert.equal(form.get('resource'), `${base}/mcp`);
    const tokens = provider.tokens();
    assert.equal(tokens.token_type, 'Bearer');
    assert.ok(tokens.refresh_token);
    const { claims } = jwtParts(tokens.access_token);
    assert.equal(claims.iss, base);
    assert.equal(claims.aud, base);
    assert.equal(claims.client_id, provider.clientInformation().client_id);
});

await first.client.close().catch(() => {});

await check('reconnect with the tokens: callTool get_fraction_sum succeeds (sum 100), the token sent as Bearer', async () => {
    const again = connect(provider);
    await again.ready;
    const from = sent.length;
    const result = await again.client.callTool({ name: 'get_fraction_sum', arguments: {} });
    assert.equal(result.structuredContent.sum, 100);
    const call = sent.slice(from).find((r) => r.method === 'POST');
    assert.equal(call.status, 200);
    assert.equal(call.authorization, `Bearer ${provider.tokens().access_token}`);
    assert.equal(JSON.parse(call.body).method, 'tools/call');
    await again.client.close();
});

const grant1 = provider.tokens();
await check('refresh: with an access token the server refuses, the SDK refreshes with the refresh token and the call succeeds', async () => {
    provider._tokens = { ...grant1, access_token: 'not-a-token' };
    // A token that is there but not valid is refused from the first request on (initialize).
    const from = sent.length;
    const again = connect(provider);
    await again.ready;
    const result = await again.client.callTool({ name: 'get_fraction_sum', arguments: {} });
    assert.equal(result.structuredContent.sum, 100);
    assert.deepEqual(stepsSince(from), [
        'POST /api/mcp 401',
        'GET /.well-known/oauth-protected-resource/api/mcp 200',
        'GET /.well-known/oauth-authorization-server/api 200',
        'POST /api/oauth/token 200',
        'POST /api/mcp 200', // initialize again
        'POST /api/mcp 202', // notifications/initialized
        'POST /api/mcp 200', // tools/call
    ]);
    assert.equal(sent[from].authorization, 'Bearer not-a-token');
    const refresh = new URLSearchParams(sent.find((r, i) => i >= from && r.url.endsWith('/oauth/token')).body);
    assert.equal(refresh.get('grant_type'), 'refresh_token');
    assert.equal(refresh.get('refresh_token'), grant1.refresh_token);
    const grant2 = provider.tokens();
    assert.notEqual(grant2.refresh_token, grant1.refresh_token, 'the refresh token did not rotate');
    assert.notEqual(grant2.access_token, grant1.access_token);
    assert.equal(provider.authorizationUrls.length, 1, 'the SDK asked the person again');
    await again.client.close();
});

const grant2 = provider.tokens();
await check('rotation: the spent refresh token is refused (invalid_grant), and its whole family is revoked', async () => {
    const clientId = provider.clientInformation().client_id;
    const reuse = await tokenRequest(base, { grant_type: 'refresh_token', refresh_token: grant1.refresh_token, client_id: clientId });
    assert.equal(reuse.status, 400);
    assert.equal(reuse.body.error, 'invalid_grant');
    const current = await tokenRequest(base, { grant_type: 'refresh_token', refresh_token: grant2.refresh_token, client_id: clientId });
    assert.equal(current.status, 400, 'the newest refresh token of the family still works');
    assert.equal(current.body.error, 'invalid_grant');
    const access = await rawToolCall(base, grant2.access_token, 'get_fraction_sum');
    assert.equal(access.status, 401, "the family's access token still works");
});

await check('a new authorization through the SDK: the session is kept (straight to consent); revoking its access token, then its refresh token', async () => {
    provider._tokens = undefined;
    const again = connect(provider);
    await again.ready;
    person.pages = [];
    await assert.rejects(again.client.callTool({ name: 'get_fraction_sum', arguments: {} }), (e) => e instanceof UnauthorizedError);
    assert.deepEqual(person.pages, ["Autoriser l'accès ?"]);
    assert.equal(provider.redirects.at(-1).searchParams.get('state'), provider.states.at(-1));
    await again.transport.finishAuth(provider.redirects.at(-1).searchParams.get('code'));
    assert.equal((await again.client.callTool({ name: 'get_fraction_sum', arguments: {} })).structuredContent.sum, 100);
    await again.client.close();
    const grant3 = provider.tokens();
    const clientId = provider.clientInformation().client_id;
    // Revocation of the access token alone (RFC 7009), then of the refresh token.
    const before = await rawToolCall(base, grant3.access_token, 'get_fraction_sum');
    assert.equal(before.status, 200);
    const revoked = await fetch(`${base}/oauth/revoke`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: grant3.access_token, token_type_hint: 'access_token', client_id: clientId }),
    });
    assert.equal(revoked.status, 200);
    const after = await rawToolCall(base, grant3.access_token, 'get_fraction_sum');
    assert.equal(after.status, 401);
    assert.match(after.wwwAuthenticate, /error="invalid_token"/);
    assert.match(after.wwwAuthenticate, new RegExp(`resource_metadata="${new URL(base).origin}/\\.well-known/oauth-protected-resource/api/mcp"`));
    const res = await fetch(`${base}/oauth/revoke`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: grant3.refresh_token, client_id: clientId }),
    });
    assert.equal(res.status, 200);
    const refresh = await tokenRequest(base, { grant_type: 'refresh_token', refresh_token: grant3.refresh_token, client_id: clientId });
    assert.equal(refresh.body.error, 'invalid_grant');
});

// A token with read:co-owners only, by the same person's authorization (no SDK needed).
let readOnly;
let unitId;
await check('a token with read:co-owners only: a read succeeds, a write gets 403 insufficient_scope naming write:co-owners', async () => {
    const { verifier, challenge } = pkce();
    const clientId = provider.clientInformation().client_id;
    const state = randomState();
    const location = await person.authorize(authorizeUrl(base, { clientId, redirectUri: callback.url, scope: 'read:co-owners', state, challenge }));
    assert.equal(location.searchParams.get('state'), state);
    const { status, body } = await tokenRequest(base, {
        grant_type: 'authorization_code', code: location.searchParams.get('code'), redirect_uri: callback.url, client_id: clientId, code_verifier: verifier,
    });
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.scope, 'read:co-owners');
    readOnly = body;
    const read = await rawToolCall(base, body.access_token, 'list_units', { search: '302' });
    assert.equal(read.status, 200);
    unitId = read.body.result.structuredContent.data.find((u) => u.number === '302').id;
    const write = await rawToolCall(base, body.access_token, 'create_co_owner', { firstName: 'Paul', lastName: 'Gauthier', unitId });
    assert.equal(write.status, 403);
    assert.match(write.wwwAuthenticate, /^Bearer /);
    assert.match(write.wwwAuthenticate, /error="insufficient_scope", scope="write:co-owners"/);
    assert.match(write.wwwAuthenticate, /resource_metadata="[^"]+\/\.well-known\/oauth-protected-resource\/api\/mcp"/);
    assert.equal(write.body.error?.message, 'INSUFFICIENT_SCOPE');
});

await check('the SDK, given that 403 without a refresh token, asks for a new authorization with scope=write:co-owners', async () => {
    assert.ok(readOnly);
    provider._tokens = { access_token: readOnly.access_token, token_type: 'Bearer' };
    const asked = provider.authorizationUrls.length;
    const again = connect(provider);
    await again.ready;
    await assert.rejects(again.client.callTool({ name: 'create_co_owner', arguments: { firstName: 'Paul', lastName: 'Gauthier', unitId } }),
        (e) => e instanceof UnauthorizedError);
    assert.equal(provider.authorizationUrls.length, asked + 1);
    assert.equal(provider.authorizationUrls.at(-1).searchParams.get('scope'), 'write:co-owners');
    // The person allowed it: the new token has the scope, and the write goes through.
    await again.transport.finishAuth(provider.redirects.at(-1).searchParams.get('code'));
    assert.equal(provider.tokens().scope, 'write:co-owners');
    const created = await again.client.callTool({ name: 'create_co_owner', arguments: { firstName: 'Paul', lastName: 'Gauthier', unitId } });
    assert.equal(created.structuredContent.lastName, 'Gauthier');
    await again.client.close();
});

await callback.close();
await check('SIGTERM: the bridge exits 0; its log names the user, never a token', async () => {
    const { code } = await bridge.stop();
    assert.equal(code, 0);
    const log = bridge.log();
    assert.match(log, /POST \/api\/mcp 200 [\d.]+ms key=user:[0-9a-f-]{36}/);
    for (const t of provider.savedTokens) assert.ok(!log.includes(t.access_token) && !log.includes(t.refresh_token), 'a token appears in the log');
    assert.ok(!log.includes(user.password));
});

console.log(`SDK OAuth end-to-end test: ${((Date.now() - started) / 1000).toFixed(1)} s`);
world.cleanup();
console.log(summary());
process.exit(failures() ? 1 : 0);
