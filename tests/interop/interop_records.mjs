#!/usr/bin/env node
// Interop test: the co-owner, water heater, insurance and contractor tools through the official
// MCP TypeScript SDK client, over stdio.
//
// Usage: node tests/interop/interop_records.mjs /path/to/syndic-mcp
//
// On a demo database (tests/interop/common.mjs): each tool once with its codes, a bulk call with
// progress notifications, and the cancellation of a bulk call (decisions.md §9), then the main
// connection still healthy. Prints "N passed, M failed" last.

import assert from 'node:assert/strict';

import {
    REQUEST_TIMEOUT_MS, call, checkArgsAgainstSchema, client, closeAndFinish, demoFacts,
    expectError, forgiveLateProgress, lastCallId, log, main, test,
} from './common.mjs';

const { apt, coOwners } = await demoFacts();

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

// ---------------------------------------------------------------------------------------------
// Water heaters, insurance, contractors: each tool once, and their codes, as the SDK sees them.

await test('the demo\'s registers: 6 water heaters (1 overdue, 1 due soon), 3 policies, 4 contractors (the roofer of the roof project too)', async () => {
    const heaters = await call(client, 'list_water_heaters', {});
    assert.equal(heaters.pagination.total, 6);
    assert.deepEqual(heaters.data.slice(0, 2).map(w => [w.unitNumber, w.status]), [['101', 'overdue'], ['102', 'due-soon']]);
    const policies = await call(client, 'list_insurance_policies', {});
    assert.equal(policies.pagination.total, 3);
    assert.equal((await call(client, 'list_insurance_policies', { appraisalOutdated: true })).data[0].kind, 'property');
    assert.equal((await call(client, 'list_contractors', {})).pagination.total, 4);
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
    // The server's today is Montreal's (UTC is already tomorrow from 19:00 or 20:00 there).
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Montreal' }).format(new Date());
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

await closeAndFinish([['main', main]]);
