#!/usr/bin/env node
// End-to-end test of the OAuth consent flow in a real browser: headless Chromium (Debian's
// /usr/bin/chromium) driven by playwright-core, against `syndic-mcp http` on 127.0.0.1 with a
// temporary demo database and one user. A public client registered by DCR, whose redirect URI is
// a tiny callback server of this test, sends the browser to the authorization endpoint with PKCE
// S256; the person signs in (a wrong password first), reads the consent page and allows; the code
// is exchanged for an access token that calls tools/call at <base>/mcp. Then, in the same
// browser: the session is kept (straight to consent), Deny, the English pages, sign-out. One
// screenshot of the consent page goes into the test's temporary folder. Prints one line per
// check, then "N passed, M failed".
//
// Usage: node tests/e2e/browser_consent.mjs /path/to/syndic-mcp

import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';

import {
    authorizeUrl, check, failures, fromInterop, interopModules, jwtParts, makeWorld, pkce, randomState, registerPublicClient,
    startBridge, startCallbackServer, summary, tokenRequest, rawToolCall, user,
} from './common.mjs';

const binary = resolve(process.argv[2] ?? 'build/syndic-mcp');
const { chromium } = createRequire(join(interopModules, '..', 'package.json'))('playwright-core');
const { Client } = await fromInterop('@modelcontextprotocol/sdk/dist/esm/client/index.js');
const { StreamableHTTPClientTransport } = await fromInterop('@modelcontextprotocol/sdk/dist/esm/client/streamableHttp.js');

const started = Date.now();
const world = makeWorld(binary, 'syndic-e2e-browser-');
const bridge = await startBridge(binary, world.db);
const callback = await startCallbackServer();
const base = bridge.base;
const syndicateName = 'Syndicat de la copropriété Le Jardin Saint-Denis (démo)';
// A name with markup and an ampersand: the pages must show it as text.
const appName = 'Assistant <b>du CA</b> & Cie — Érables';
const scope = 'read:co-owners read:meetings';

const squash = (text) => (text ?? '').replace(/\s+/g, ' ').trim();

const context = await chromium.launchPersistentContext(join(world.tmp, 'chromium-profile'), {
    executablePath: '/usr/bin/chromium',
    headless: true,
    locale: 'fr-CA', // Accept-Language: fr-CA
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
        '--disable-component-update', '--disable-sync'],
});
const page = context.pages()[0] ?? (await context.newPage());
page.setDefaultTimeout(10_000);

async function sessionCookie() {
    return (await context.cookies(base)).find((c) => c.name === 'syndic_session');
}

// One authorization request: a fresh state and PKCE pair each time.
function newRequest(extra) {
    const { verifier, challenge } = pkce();
    const state = randomState();
    return { verifier, state, url: authorizeUrl(base, { clientId: client.client_id, redirectUri: callback.url, scope, state, challenge, extra }) };
}

let client;
await check('a public client registers by DCR with the callback server as its redirect URI', async () => {
    client = await registerPublicClient(base, callback.url, appName);
    assert.equal(client.token_endpoint_auth_method, 'none');
    assert.deepEqual(client.redirect_uris, [callback.url]);
    assert.equal(client.client_secret, undefined);
});

const first = newRequest();
await check('the authorization URL shows the French sign-in page naming the app', async () => {
    const response = await page.goto(first.url.href);
    assert.equal(response.status(), 200);
    assert.equal(await page.getAttribute('html', 'lang'), 'fr');
    assert.equal(await page.title(), 'Connexion · syndic-mcp');
    assert.equal(squash(await page.textContent('h1')), 'Connexion');
    assert.equal(await page.textContent('main .app'), appName);
    assert.equal(await page.locator('main b').count(), 0, 'the app name was read as markup');
    assert.match(squash(await page.textContent('main p')), /demande l'accès aux registres de votre syndicat\. Connectez-vous pour décider\.$/);
    assert.equal(await page.getByLabel('Courriel').getAttribute('type'), 'email');
    assert.equal(await page.getByLabel('Mot de passe').getAttribute('type'), 'password');
    assert.equal(await page.getByRole('button', { name: 'Se connecter' }).count(), 1);
    assert.equal(await sessionCookie(), undefined);
});

await check('a wrong password shows the error message and sets no cookie', async () => {
    await page.getByLabel('Courriel').fill(user.email);
    await page.getByLabel('Mot de passe').fill('not the password');
    const [response] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/oauth/signin')),
        page.getByRole('button', { name: 'Se connecter' }).click()]);
    assert.equal(response.status(), 401, `${response.status()} ${await response.text()}`);
    await page.waitForLoadState();
    assert.equal(squash(await page.getByRole('alert').textContent()), 'Courriel ou mot de passe incorrect.');
    assert.equal(squash(await page.textContent('h1')), 'Connexion');
    assert.equal(await sessionCookie(), undefined);
});

let consentHtml = '';
await check('the right password leads to the consent page naming the app, the syndicate, the scopes and the person', async () => {
    await page.getByLabel('Courriel').fill(user.email);
    await page.getByLabel('Mot de passe').fill(user.password);
    const [response] = await Promise.all([page.waitForResponse((r) => r.url().includes('/oauth/authorize?')),
        page.getByRole('button', { name: 'Se connecter' }).click()]);
    assert.equal(response.status(), 200, `${response.status()} ${await response.text()}`);
    await page.waitForLoadState();
    assert.equal(await page.title(), "Autoriser l'accès ? · syndic-mcp");
    assert.equal(squash(await page.textContent('h1')), "Autoriser l'accès ?");
    const paragraphs = (await page.locator('main p').allTextContents()).map(squash);
    assert.equal(paragraphs[0], `${appName} demande à agir en votre nom sur les registres de ${syndicateName}.`);
    assert.equal(paragraphs[1], "Cette application s'est inscrite elle-même ; son nom est celui qu'elle a donné. "
        + "N'autorisez que si vous avez lancé cette connexion.");
    assert.equal(paragraphs[2], 'Elle pourra :');
    assert.deepEqual((await page.locator('ul.scopes li').allTextContents()).map(squash), [
        'consulter le registre des copropriétaires et des unités (noms, coordonnées, quotes-parts) (read:co-owners)',
        'consulter les assemblées, les présences, les votes et les procès-verbaux (read:meetings)',
    ]);
    const port = new URL(callback.url).port;
    assert.equal(paragraphs[3], "L'accès dure 15 minutes à la fois et l'application peut le renouveler sans vous le redemander "
        + 'pendant 30 jours ; un administrateur du syndicat peut le retirer en tout temps.');
    assert.equal(paragraphs[4], `La réponse sera envoyée à http://127.0.0.1:${port}. Connecté en tant que ${user.name} (${user.email}).`);
    assert.equal(await page.locator('main b').count(), 0, 'the app name was read as markup');
    assert.equal(await page.getByRole('button', { name: 'Autoriser' }).count(), 1);
    assert.equal(await page.getByRole('button', { name: 'Refuser' }).count(), 1);
    assert.equal(await page.getByRole('button', { name: 'Se déconnecter' }).count(), 1);
    consentHtml = await page.content();
});

await check('the consent page has no script, and headers that forbid framing and scripts', async () => {
    assert.ok(consentHtml.length > 0);
    assert.doesNotMatch(consentHtml, /<script/i);
    assert.equal(await page.locator('script').count(), 0);
    assert.doesNotMatch(consentHtml, /\son[a-z]+\s*=/i, 'an inline event handler');
    const response = await page.request.get(page.url());
    assert.equal(response.headers()['x-frame-options'], 'DENY');
    assert.match(response.headers()['content-security-policy'], /default-src 'none'/);
    assert.match(response.headers()['content-security-policy'], /frame-ancestors 'none'/);
    assert.equal(response.headers()['cache-control'], 'no-store');
});

await check('the session cookie is HttpOnly, SameSite=Lax, on the base path, not Secure over http', async () => {
    const cookie = await sessionCookie();
    assert.ok(cookie, 'no syndic_session cookie');
    assert.equal(cookie.httpOnly, true);
    assert.equal(cookie.sameSite, 'Lax');
    assert.equal(cookie.path, new URL(base).pathname);
    assert.equal(cookie.secure, false);
    assert.match(cookie.value, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(await page.evaluate(() => document.cookie), '', 'the page can read the cookie');
});

await check('a screenshot of the consent page', async () => {
    assert.equal(squash(await page.textContent('h1')), "Autoriser l'accès ?");
    const file = join(world.tmp, 'consent.png');
    await page.screenshot({ path: file, fullPage: true });
    console.log(`     screenshot: ${file}`);
});

let code;
await check('Allow lands on the callback with code, the same state and iss', async () => {
    const before = callback.received.length;
    await Promise.all([page.waitForURL((u) => u.href.startsWith(callback.url)),
        page.getByRole('button', { name: 'Autoriser' }).click()]);
    const query = await callback.next(before);
    assert.deepEqual([...query.keys()].sort(), ['code', 'iss', 'state']);
    assert.equal(query.get('state'), first.state);
    assert.equal(query.get('iss'), base);
    assert.match(query.get('code'), /^[A-Za-z0-9_-]{20,}$/);
    assert.equal(new URL(page.url()).searchParams.get('code'), query.get('code'));
    code = query.get('code');
});

let tokens;
await check('the code and the verifier give an ES256 access token for the resource, with the scopes asked', async () => {
    const { status, headers, body } = await tokenRequest(base, {
        grant_type: 'authorization_code', code, redirect_uri: callback.url, client_id: client.client_id,
        code_verifier: first.verifier, resource: `${base}/mcp`,
    });
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(headers.get('cache-control'), 'no-store');
    assert.equal(body.token_type, 'Bearer');
    assert.equal(body.expires_in, 900);
    assert.equal(body.scope, scope);
    assert.ok(body.refresh_token);
    const { header, claims } = jwtParts(body.access_token);
    assert.equal(header.alg, 'ES256');
    assert.ok(header.kid);
    assert.equal(claims.iss, base);
    assert.equal(claims.aud, base);
    assert.equal(claims.scope, scope);
    assert.equal(claims.client_id, client.client_id);
    assert.equal(claims.role, 'admin');
    assert.ok(claims.exp - claims.iat === 900);
    tokens = body;
});

await check('the access token calls tools/call get_fraction_sum at <base>/mcp: sum 100', async () => {
    const mcp = new Client({ name: 'syndic-e2e-browser', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${tokens.access_token}` } },
    });
    await mcp.connect(transport);
    const result = await mcp.callTool({ name: 'get_fraction_sum', arguments: {} });
    assert.equal(result.isError, undefined);
    assert.equal(result.structuredContent.sum, 100);
    await mcp.close();
    assert.match(bridge.log(), new RegExp(`POST /api/mcp 200 [\\d.]+ms key=user:${jwtParts(tokens.access_token).claims.sub}`));
});

await check('the code is single-use: a second exchange is invalid_grant, and the refresh token it gave is revoked', async () => {
    const { status, body } = await tokenRequest(base, {
        grant_type: 'authorization_code', code, redirect_uri: callback.url, client_id: client.client_id, code_verifier: first.verifier,
    });
    assert.equal(status, 400);
    assert.equal(body.error, 'invalid_grant');
    const call = await rawToolCall(base, tokens.access_token, 'get_fraction_sum');
    console.log(`     note: the access token of the reused code now answers ${call.status}`);
    const refresh = await tokenRequest(base, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: client.client_id });
    assert.equal(refresh.body.error, 'invalid_grant');
});

const second = newRequest();
await check('a second authorization in the same browser goes straight to consent (session kept)', async () => {
    const response = await page.goto(second.url.href);
    assert.equal(response.status(), 200);
    assert.equal(squash(await page.textContent('h1')), "Autoriser l'accès ?");
    assert.equal(await page.getByLabel('Mot de passe').count(), 0);
});

await check('Deny lands on the callback with error=access_denied, the same state and iss, and no code', async () => {
    const before = callback.received.length;
    await Promise.all([page.waitForURL((u) => u.href.startsWith(callback.url)),
        page.getByRole('button', { name: 'Refuser' }).click()]);
    const query = await callback.next(before);
    assert.equal(query.get('error'), 'access_denied');
    assert.equal(query.get('state'), second.state);
    assert.equal(query.get('iss'), base);
    assert.equal(query.get('code'), null);
});

const english = newRequest({ lang: 'en' });
await check('?lang=en shows the consent page in English', async () => {
    await page.goto(english.url.href);
    assert.equal(await page.getAttribute('html', 'lang'), 'en');
    assert.equal(squash(await page.textContent('h1')), 'Allow access?');
    const paragraphs = (await page.locator('main p').allTextContents()).map(squash);
    assert.equal(paragraphs[0], `${appName} asks to act for you on the registers of ${syndicateName}.`);
    assert.equal(paragraphs[1], 'This application registered itself; its name is the one it gave. Allow it only if you started this connection.');
    assert.equal(paragraphs[2], 'It will be able to:');
    assert.deepEqual((await page.locator('ul.scopes li').allTextContents()).map(squash), [
        'read the register of co-owners and units (names, contact details, fractions) (read:co-owners)',
        'read meetings, attendance, votes and minutes (read:meetings)',
    ]);
    assert.match(paragraphs[3], /^Access lasts 15 minutes at a time and the application may renew it without asking you for up to 30 days/);
    assert.match(paragraphs[4], new RegExp(`^The answer goes to http://127\\.0\\.0\\.1:\\d+\\. Signed in as ${user.name} \\(${user.email}\\)\\.$`));
    for (const name of ['Allow', 'Deny', 'Sign out']) assert.equal(await page.getByRole('button', { name, exact: true }).count(), 1, name);
    assert.equal(await page.locator('script').count(), 0);
});

await check('sign-out ends the session: the signed-out page, no cookie, the old cookie refused by the server', async () => {
    const old = await sessionCookie();
    assert.ok(old);
    await Promise.all([page.waitForURL((u) => u.pathname.endsWith('/oauth/signout')),
        page.getByRole('button', { name: 'Sign out', exact: true }).click()]);
    assert.equal(squash(await page.textContent('h1')), 'Signed out');
    assert.equal(await sessionCookie(), undefined);
    // The old cookie, replayed, is no session any more: the sign-in form again.
    const replay = await fetch(newRequest().url, { headers: { Cookie: `syndic_session=${old.value}`, 'Accept-Language': 'fr' } });
    assert.equal(replay.status, 200);
    const html = await replay.text();
    assert.match(html, /<h1>Connexion<\/h1>/);
    assert.match(html, /name="password"/);
});

const again = newRequest({ lang: 'en' });
await check('after sign-out the browser is asked to sign in again, in English with ?lang=en', async () => {
    await page.goto(again.url.href);
    assert.equal(await page.getAttribute('html', 'lang'), 'en');
    assert.equal(squash(await page.textContent('h1')), 'Sign in');
    assert.match(squash(await page.textContent('main p')), /asks for access to your syndicate's registers\. Sign in to decide\.$/);
    assert.equal(await page.getByLabel('E-mail').count(), 1);
    assert.equal(await page.getByLabel('Password').count(), 1);
    assert.equal(await page.getByRole('button', { name: 'Sign in' }).count(), 1);
});

await check('a wrong password on the English sign-in page gives the English error', async () => {
    await page.getByLabel('E-mail').fill(user.email);
    await page.getByLabel('Password').fill('not the password');
    await Promise.all([page.waitForResponse((r) => r.url().endsWith('/oauth/signin')), page.getByRole('button', { name: 'Sign in' }).click()]);
    await page.waitForLoadState();
    assert.equal(await page.getAttribute('html', 'lang'), 'en');
    assert.equal(squash(await page.getByRole('alert').textContent()), 'Wrong e-mail or password.');
});

await check('signing in on the English page leads to the English consent page', async () => {
    await page.getByLabel('E-mail').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await Promise.all([page.waitForResponse((r) => r.url().includes('/oauth/authorize?')), page.getByRole('button', { name: 'Sign in' }).click()]);
    await page.waitForLoadState();
    assert.equal(squash(await page.textContent('h1')), 'Allow access?');
    assert.equal(await page.getByRole('button', { name: 'Allow', exact: true }).count(), 1);
});

await context.close();
await callback.close();
await check('SIGTERM: the bridge exits 0 and never logs a code, a token or the password', async () => {
    const { code: exitCode } = await bridge.stop();
    assert.equal(exitCode, 0);
    const log = bridge.log();
    if (code) assert.ok(!log.includes(code), 'the code appears in the log');
    if (tokens) assert.ok(!log.includes(tokens.access_token) && !log.includes(tokens.refresh_token), 'a token appears in the log');
    assert.ok(!log.includes(user.password), 'the password appears in the log');
});

console.log(`browser end-to-end test: ${((Date.now() - started) / 1000).toFixed(1)} s`);
world.cleanup();
console.log(summary());
process.exit(failures() ? 1 : 0);
