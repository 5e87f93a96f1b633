#!/usr/bin/env node
// Interop test: a whole meeting through the official MCP TypeScript SDK client, over stdio.
//
// Usage: node tests/interop/interop_meetings.mjs /path/to/syndic-mcp
//
// On a demo database (tests/interop/common.mjs): one meeting from draft to minutes-sent
// (decisions.md §6: notice, attendance, quorum, resolutions, votes, PDF minutes checked on disk),
// then the meetings' error codes as the SDK sees them. Prints "N passed, M failed" last.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

import {
    apiKey, call, client, closeAndFinish, connect, demoFacts, expectError, forgiveLateProgress,
    lastCallId, log, main, test, tmp,
} from './common.mjs';

const { coOwners } = await demoFacts();

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
    // The demo's lot 102 (Jean-François Gagnon, Isabelle Roy) owes more than three months of
    // contributions: its 16 % are suspended (art. 1094), so the quorum is 51 % of the other 84 %.
    near(q.votingBase, 84, 'votingBase: lot 102 suspended');
    near(q.required, 51 * q.votingBase / 100, 'required: 51 % (syndicate default) of the voting base');
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

await test('record_votes before the meeting\'s day -> MEETING_NOT_YET_HELD', async () => {
    await expectError(client.callTool({
        name: 'record_votes',
        arguments: { resolutionId: simpleRes.id, votesFor: 50, votesAgainst: 0, votesAbstain: 0 },
    }), -32000, 'MEETING_NOT_YET_HELD', d => assert.ok(d.scheduledAt, 'data.scheduledAt'));
});

// The meeting's day: a second server on the same database, its clock an hour after the meeting began.
const dayClock = new Date(meetingAt + 3600 * 1000).toISOString().slice(0, 19).replace('T', ' ');
let onDay;
await test('a server on the meeting\'s day (faketime) answers initialize', async () => {
    onDay = await connect('meeting-day', { apiKey, clock: dayClock });
});
const dayClient = onDay ? onDay.client : client;

await test('record_votes: simple passes, special rejected (votes within the votes represented)', async () => {
    // Represented: expectedQuorum.total (75.25 in the demo), the base of the majorities.
    const v1 = { votesFor: 50, votesAgainst: 20, votesAbstain: 5.25 };
    const v2 = { votesFor: 70, votesAgainst: 5, votesAbstain: 0 };
    for (const v of [v1, v2]) {
        assert.ok(v.votesFor + v.votesAgainst + v.votesAbstain <= expectedQuorum.total + 1e-9, 'test bug: votes beyond representation');
    }
    const r1 = await call(dayClient, 'record_votes', { resolutionId: simpleRes.id, meetingId: meeting.id, ...v1 });
    assert.equal(r1.id, simpleRes.id);
    assert.equal(r1.votesRecorded, true);
    near(r1.votesFor, 50, 'votesFor');
    near(r1.votesAgainst, 20, 'votesAgainst');
    near(r1.votesAbstain, 5.25, 'votesAbstain');
    assert.equal(r1.outcome, 'passed', 'simple: 50 of the 75.25 present is more than 50%');
    near(r1.quorum.votesPresent, expectedQuorum.total, 'quorum.votesPresent');
    const r2 = await call(dayClient, 'record_votes', { resolutionId: specialRes.id, ...v2 });
    assert.equal(r2.id, specialRes.id);
    assert.equal(r2.votesRecorded, true);
    assert.equal(r2.outcome, 'rejected', 'special: not every vote of the syndicate');
});

await test('update_meeting status held', async () => {
    const m = await call(dayClient, 'update_meeting', { id: meeting.id, status: 'held' });
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

await test('update_meeting minutes-sent -> INVALID_STATUS_TRANSITION (only send_minutes sends them)', async () => {
    await expectError(client.callTool({ name: 'update_meeting', arguments: { id: meeting.id, status: 'minutes-sent' } }),
        -32000, 'INVALID_STATUS_TRANSITION', d => assert.equal(d.field, '/status'));
});
await test('send_minutes with only draft minutes -> MINUTES_NOT_FINAL', async () => {
    await expectError(client.callTool({ name: 'send_minutes', arguments: { meetingId: meeting.id } }),
        -32000, 'MINUTES_NOT_FINAL', () => {});
});

let finalMinutes;
await test('generate_minutes final (fr): PDF on disk matches the result', async () => {
    // On the meeting's day, after it was held there: final minutes are of the meeting as it stands.
    finalMinutes = await call(dayClient, 'generate_minutes', { meetingId: meeting.id, draft: false });
    checkMinutesFile(finalMinutes, meeting.id, { draft: false, language: 'fr' });
    assert.notEqual(finalMinutes.documentId, draftMinutes?.documentId);
    assert.notEqual(finalMinutes.path, draftMinutes?.path);
});

await test('send_minutes: the meeting becomes minutes-sent', async () => {
    const r = await call(dayClient, 'send_minutes', { meetingId: meeting.id, sendBy: 'email' });
    assert.equal(r.meeting.status, 'minutes-sent');
    assert.equal(r.documentId, finalMinutes?.documentId);
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

await closeAndFinish([['main', main], ['meeting-day', onDay]]);
