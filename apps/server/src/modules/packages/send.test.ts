import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { formatDateTime, sendMessages } from '@filerunner/protocol';
import {
  createUser,
  describeOnSwift,
  linkIn,
  setContractSettings,
  useTestServer,
  type ContractFixture,
  type TestServer,
} from '../../../test/harness';
import {
  everyKindOfFile,
  fileBytes,
  listeningSender,
  TestUploader,
  type TestFile,
} from '../../../test/uploader';
import { defaultContractSettings, packageRecipients, users } from '../../db/schema';
import { addMember } from '../contracts/contracts.service';
import { insertGroup } from '../contracts/groups.repository';

let server: TestServer;
let fx: ContractFixture;
let origin: string;
let sender: TestUploader;

const hour = 3600_000;
const period = () => ({
  valid_from: new Date().toISOString(),
  valid_to: new Date(Date.now() + 48 * hour).toISOString(),
});
const intended = (files: TestFile[]) => ({
  expected_files: files.length,
  expected_size: files.reduce((s, f) => s + f.bytes.length, 0),
  intended_files: files.map((f) => ({ filename: f.path, size: f.bytes.length })),
});

useTestServer(async (t) => {
  ({ server } = t);
  ({ origin, fx, sender } = await setUpContract(server));
});

/** What every send test needs: a contract with groups, notifications and a listening server. */
async function setUpContract(server: TestServer) {
  // The sender and the receive-only member share a group; the admin is in the master group.
  const setUp = await listeningSender(server, 'Design');
  await setContractSettings(server, setUp.fx.contract.id, {
    can_add_ad_hoc: true,
    notifications: [{ name: 'Ops', email: 'ops-sent@example.com', enabled: true }],
  });
  return setUp;
}

describeOnSwift('sending a package to OpenStack Swift (SWIFT_AUTH_URL)', (startServer) => {
  it('stores every kind of file on Swift and sends the package', async () => {
    const swiftServer = await startServer();
    const setUp = await setUpContract(swiftServer);
    await sendsEveryKindOfFile(swiftServer, setUp.fx, setUp.sender);
  });
});

describe('sending a package', () => {
  it('uploads small files, a slab and a large file, then tells recipients and the watch list', () =>
    sendsEveryKindOfFile(server, fx, sender));

  it('mails each recipient the end in their own time zone, named (UTC without one)', async () => {
    await server.ctx.db
      .update(users)
      .set({ timezone: 'America/New_York' })
      .where(eq(users.id, fx.receiver.user.id));
    const validTo = new Date(Math.floor((Date.now() + 48 * hour) / 60_000) * 60_000);
    const files = [{ path: 'zone.txt', bytes: fileBytes(10, 3) }];
    const { record } = await sender.send(files, {
      create: {
        contract: fx.contract.slug,
        name: 'Zoned',
        recipients: [{ id: fx.receiver.user.id }, { email: 'zone.partner@example.com' }],
        valid_from: new Date().toISOString(),
        valid_to: validTo.toISOString(),
        ...intended(files),
      },
    });
    expect(record.status).toBe('COMPLETED');
    const received = (to: string) =>
      server.waitForMail(
        (m) => JSON.stringify(m.to).includes(to) && /"Zoned"/.test(m.subject ?? ''),
      );
    const newYork = formatDateTime(validTo, 'America/New_York');
    expect(newYork).not.toBe(formatDateTime(validTo, 'UTC'));
    expect((await received(fx.receiver.user.email)).text).toContain(
      `It is available until ${newYork} (America/New_York).`,
    );
    expect((await received('zone.partner@example.com')).text).toContain(
      `It is available until ${formatDateTime(validTo, 'UTC')} (UTC).`,
    );
  });

  it('refuses to finalise with missing files, and force-completes with the ones that arrived', async () => {
    const files = [
      { path: 'one.txt', bytes: fileBytes(10, 9) },
      { path: 'two.txt', bytes: fileBytes(20, 10) },
    ];
    const pkg = await sender.create({
      contract: fx.contract.slug,
      name: 'Half there',
      recipients: [{ id: fx.admin.user.id }],
      ...period(),
      ...intended(files),
    });
    const grants = await sender.grants(pkg, files);
    const first = await sender.formPost(grants, [files[0]!]);
    await sender.upload(pkg, 'updatefiles', { files: first });
    const refused = await sender.upload(pkg, 'update', { complete: true });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      detail: sendMessages.notAllFiles,
      missing_files: ['two.txt'],
    });

    const forced = await sender.upload(pkg, 'update', { complete: true, force: true });
    expect(forced.body).toMatchObject({
      status: 'force_completed',
      failed_files: ['two.txt'],
      num_files: 1,
    });
    // Once sent, the upload calls are closed, and the store takes no more files for it.
    await expect(sender.formPost(grants, [files[1]!])).rejects.toThrow('formpost failed 403');
    const late = await sender.upload(pkg, 'updatefiles', { files: first });
    expect(late.status).toBe(400);
  });

  it('checks every reported object in storage and keeps senders inside their own package', async () => {
    const files = [{ path: 'a.bin', bytes: fileBytes(100, 11) }];
    const pkg = await sender.create({
      contract: fx.contract.slug,
      name: 'Checked',
      recipients: [{ id: fx.receiver.user.id }],
      ...period(),
      ...intended(files),
    });
    const grants = await sender.grants(pkg, files);
    const [reported] = await sender.formPost(grants, files);

    const wrongSize = await sender.upload(pkg, 'updatefiles', {
      files: [{ ...reported, size_bytes: 99 }],
    });
    expect(wrongSize.status).toBe(400);
    const missing = await sender.upload(pkg, 'updatefiles', {
      files: [{ ...reported, object_path: `${reported!.object_path}-nothing` }],
    });
    expect(missing.body.files).toEqual([`a.bin: ${sendMessages.objectMissing}`]);
    for (const object_path of [
      'packages/other/a.bin',
      `/other-container/${reported!.object_path}`,
      `${reported!.object_path.split('/').slice(0, 2).join('/')}/../x/a`,
    ]) {
      const outside = await sender.upload(pkg, 'updatefiles', {
        files: [{ ...reported, object_path }],
      });
      expect(outside.body).toEqual({ object_path: [sendMessages.outsidePackage] });
    }
    const unknown = await sender.upload(pkg, 'updatefiles', {
      files: [{ ...reported, user_path: 'b.bin' }],
    });
    expect(unknown.status).toBe(400);

    // Another member cannot touch the sender's package, even knowing its slug.
    const admin = new TestUploader(server, origin, fx.admin.headers);
    expect((await admin.upload(pkg, 'updatefiles', { files: [reported] })).status).toBe(404);
    expect((await admin.call('POST', `/packages/${pkg.slug}/bulk/`, { batches: [] })).status).toBe(
      404,
    );
    expect((await sender.upload(pkg, 'updatefiles', { files: [reported] })).status).toBe(200);
    // The engine repeats a report whose answer it missed; recording it again changes nothing.
    const repeated = await sender.upload(pkg, 'updatefiles', { files: [reported] });
    expect(repeated).toEqual({ status: 200, body: { updated: 1 } });
  });
});

describe('what a send is checked against', () => {
  const base = () => ({
    contract: fx.contract.slug,
    name: 'Checks',
    recipients: [{ id: fx.receiver.user.id }],
    ...period(),
    ...intended([{ path: 'x.txt', bytes: fileBytes(5, 1) }]),
  });
  const attempt = (payload: unknown, headers: Record<string, string> = fx.sender.headers) =>
    new TestUploader(server, origin, headers).call('POST', '/packages/create/', payload);

  it('answers an empty form with the send screen’s messages per field', async () => {
    const { status, body } = await attempt({});
    expect(status).toBe(400);
    expect(body.contract).toEqual([sendMessages.selectContract]);
    expect(body.recipients).toEqual([sendMessages.selectRecipients]);
    expect(body.intended_files).toEqual([sendMessages.selectFiles]);
    expect(body.name).toEqual([sendMessages.nameRequired]);
    expect((await attempt({ ...base(), name: 'x'.repeat(256) })).body.name).toEqual([
      sendMessages.nameTooLong,
    ]);
  });

  it('enforces the access period', async () => {
    const day = 24 * hour;
    const at = (from: number, to: number) => ({
      valid_from: new Date(Date.now() + from).toISOString(),
      valid_to: new Date(Date.now() + to).toISOString(),
    });
    expect((await attempt({ ...base(), ...at(2 * day, day) })).body).toEqual({
      valid_to: [sendMessages.periodEndBeforeStart],
    });
    expect((await attempt({ ...base(), ...at(-2 * hour, day) })).body).toEqual({
      valid_from: [sendMessages.periodStartInPast],
    });
    expect((await attempt({ ...base(), ...at(0, 16 * day) })).body).toEqual({
      valid_to: [sendMessages.periodTooLong],
    });
    expect((await attempt({ ...base(), ...at(hour, 15 * day) })).status).toBe(201);
  });

  it('refuses a start weeks ahead: the package would outlast its 15 days of storage', async () => {
    const day = 24 * hour;
    const at = (from: number, to: number) => ({
      valid_from: new Date(Date.now() + from).toISOString(),
      valid_to: new Date(Date.now() + to).toISOString(),
    });
    const weeksAhead = await attempt({ ...base(), ...at(23 * day, 25 * day) });
    expect(weeksAhead.status).toBe(400);
    expect(weeksAhead.body).toEqual({ valid_from: [sendMessages.periodPastStorage] });
    expect((await attempt({ ...base(), ...at(10 * day, 16 * day) })).body).toEqual({
      valid_to: [sendMessages.periodPastStorage],
    });
    expect((await attempt({ ...base(), ...at(10 * day, 15 * day - hour) })).status).toBe(201);
  });

  it('allows only the senders of the contract', async () => {
    expect((await attempt(base(), fx.receiver.headers)).status).toBe(403);
    expect((await attempt(base(), fx.outsider.headers)).status).toBe(404);
    expect((await attempt(base(), { 'x-client-version': 'test' })).status).toBe(401);
  });

  it('applies the contract’s PIN policy and ad-hoc setting', async () => {
    const setSettings = (settings: Partial<typeof defaultContractSettings>) =>
      setContractSettings(server, fx.contract.id, settings);
    const adHoc = { recipients: [{ email: 'new.person@example.com' }] };

    await setSettings({ can_add_ad_hoc: false });
    expect((await attempt({ ...base(), ...adHoc })).body).toEqual({
      recipients: [sendMessages.adHocNotAllowed],
    });

    // ALL: every recipient needs a mobile, and the package is PIN-protected whatever the toggle says.
    await setSettings({ pin_verification: 'all' });
    expect((await attempt(base())).body).toEqual({ recipients: [sendMessages.pinMobiles] });
    const bad = await attempt({
      ...base(),
      recipients: [{ id: fx.receiver.user.id, mobile: '12' }],
    });
    expect(bad.body).toEqual({ recipients: [sendMessages.invalidMobile] });
    const ok = await attempt({
      ...base(),
      pin_verify: false,
      recipients: [{ id: fx.receiver.user.id, mobile: '447911123456' }],
    });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ pin_verified: true, recipients: [{ mobile_hint: '456' }] });

    // ADHOC: only recipients without an activated account need a mobile.
    await setSettings({ pin_verification: 'adhoc', can_add_ad_hoc: true });
    expect((await attempt({ ...base(), pin_verify: true })).status).toBe(201);
    expect((await attempt({ ...base(), ...adHoc, pin_verify: true })).body).toEqual({
      recipients: [sendMessages.pinMobiles],
    });
    const adHocOk = await attempt({
      ...base(),
      recipients: [{ email: 'new.person@example.com', mobile: '+14155550123' }],
      pin_verify: true,
    });
    expect(adHocOk.status).toBe(201);
    const [row] = await server.ctx.db
      .select()
      .from(packageRecipients)
      .where(eq(packageRecipients.packageId, (adHocOk.body as { id: number }).id));
    expect(row).toMatchObject({
      email: 'new.person@example.com',
      pinRequired: true,
      mobile: '+14155550123',
    });

    // NONE: the toggle is off whatever the client sends.
    await setSettings({ pin_verification: 'none' });
    expect((await attempt({ ...base(), pin_verify: true })).body).toMatchObject({
      pin_verified: false,
    });
  });

  it('never reaches a member outside the sender’s groups, not even by typing their email', async () => {
    await setContractSettings(server, fx.contract.id, { can_add_ad_hoc: true });
    const hidden = await createUser(server);
    await addMember(server.ctx, fx.contract.id, hidden.id, { send: true });
    await insertGroup(server.ctx.db, fx.contract.id, { name: 'Closed', members: [hidden.id] });

    for (const recipients of [
      [{ id: hidden.id }],
      [{ email: hidden.email }],
      [{ id: fx.outsider.user.id }],
    ]) {
      const refused = await attempt({ ...base(), recipients });
      expect(refused.body).toEqual({ recipients: [sendMessages.recipientNotAllowed] });
    }
    // A reachable member typed as an address is that member, with their verified account.
    const typed = await attempt({
      ...base(),
      recipients: [{ email: fx.admin.user.email.toUpperCase() }],
    });
    expect(typed.status).toBe(201);
    const [row] = await server.ctx.db
      .select()
      .from(packageRecipients)
      .where(eq(packageRecipients.packageId, (typed.body as { id: number }).id));
    expect(row!.userId).toBe(fx.admin.user.id);
  });
});

/**
 * The whole send path driven by the upload engine: FormPost for small files, a slab, segments
 * joined by a manifest, finalise; then the recipients' and the watch list's mails.
 */
async function sendsEveryKindOfFile(server: TestServer, fx: ContractFixture, sender: TestUploader) {
  const { slabbed, all } = everyKindOfFile();

  const pkg = await sender.create({
    contract: fx.contract.slug,
    name: 'Launch assets',
    message: 'Final versions',
    recipients: [{ id: fx.receiver.user.id }, { email: 'Partner@Example.com', mobile: null }],
    ...period(),
    ...intended(all),
  });
  expect(pkg).toMatchObject({ status: 'uploading', num_files: 6, date_sent: null });
  expect(pkg.recipients.map((r) => r.email).sort()).toEqual(
    [fx.receiver.user.email, 'partner@example.com'].sort(),
  );

  // The engine sends the small files by FormPost, the icons as a slab, the video as segments.
  const { record } = await sender.send(all, { pkg }, { slabbed });
  expect(record).toMatchObject({ status: 'COMPLETED', failedFiles: [] });
  expect(record.progress).toMatchObject({ completedFiles: 6, totalFiles: 6 });
  const done = await sender.upload(pkg, 'update', { complete: true, name: pkg.name });
  expect(done.status).toBe(200);
  expect(done.body).toMatchObject({ status: 'complete', failed_files: [], num_files: 6 });
  expect(done.body.bytes).toBe(all.reduce((s, f) => s + f.bytes.length, 0));

  const inboxMail = await server.waitForMail((m) =>
    JSON.stringify(m.to).includes(fx.receiver.user.email),
  );
  expect(inboxMail.subject).toContain('"Launch assets"');
  expect(linkIn(inboxMail)).toBe(`http://127.0.0.1:8080/inbox/${pkg.slug}`);
  const externalMail = await server.waitForMail((m) =>
    JSON.stringify(m.to).includes('partner@example.com'),
  );
  expect(linkIn(externalMail)).toMatch(
    new RegExp(`^http://127\\.0\\.0\\.1:8080/inbox/external/${pkg.slug}\\?key=[\\w-]{43}$`),
  );
  const watch = await server.waitForMail((m) => m.subject === 'Package sent: Launch assets');
  expect(watch.text).toContain('6 file(s)');

  // The key is in the mail only; the database holds its hash.
  const key = new URL(linkIn(externalMail)).searchParams.get('key')!;
  const rows = await server.ctx.db.select().from(packageRecipients);
  expect(JSON.stringify(rows)).not.toContain(key);

  // Finalising again (the call above, and an engine retrying) neither fails nor mails again.
  await server.outbox.drain();
  const sentMails = (await server.mails()).filter(
    (m) => m.subject === 'Package sent: Launch assets',
  );
  expect(sentMails).toHaveLength(1);
}
