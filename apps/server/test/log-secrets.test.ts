import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { API_KEY_SCHEME } from '@filerunner/protocol';
import { users } from '../src/db/schema';
import {
  BASE_HEADERS,
  contractFixture,
  groupOfSenderAndReceiver,
  linkIn,
  PASSWORD,
  setContractSettings,
  startTestServer,
  uniqueEmail,
  type TestServer,
} from './harness';
import { everyKindOfFile, TestUploader } from './uploader';

// Everything a send-and-download handles that would let a reader of the log act as someone:
// session cookies, API keys, signed store URLs, download tokens, the links mails carry,
// passwords, and the values of a failing SQL statement. The server logs at debug, more than
// the default, so every request line is in the buffer.

const NEW_PASSWORD = 'Brand-New-Horse8!';
const RESET_PASSWORD = 'Reset-Horse-Nine9!';

/** The log lines the server wrote, as one text. */
function logBuffer() {
  const lines: string[] = [];
  return { write: (line: string) => void lines.push(line), text: () => lines.join('') };
}

/** Secrets the test saw, by what they are, so a leak names itself. */
class Secrets {
  readonly found = new Map<string, string>();
  add(label: string, value: string | null | undefined) {
    if (!value) throw new Error(`no ${label} to look for`);
    this.found.set(`${label} #${this.found.size}`, value);
  }
  addSignature(label: string, url: string) {
    this.add(label, new URL(url).searchParams.get('temp_url_sig'));
  }
  /** The secrets that occur in `text`, raw or percent-encoded. */
  leakedInto(text: string): string[] {
    return [...this.found]
      .filter(([, value]) => text.includes(value) || text.includes(encodeURIComponent(value)))
      .map(([label]) => label);
  }
}

/** A mail link's last two path segments: uid and token (activation and reset links). */
function uidAndToken(link: string) {
  const [uid, token] = new URL(link).pathname.split('/').slice(-2);
  return { uid: uid!, token: token! };
}

let server: TestServer;
afterAll(() => server?.close());

describe('the log at debug level', () => {
  it('carries none of the secrets of logins, API keys, a send, downloads and mails', async () => {
    const log = logBuffer();
    server = await startTestServer({ LOG_LEVEL: 'debug' }, { logStream: log });
    const secrets = new Secrets();
    secrets.add('password', PASSWORD);

    // Two failing statements whose parameters a log must not repeat: a unique violation and a
    // value PostgreSQL refuses (its message quotes the value).
    const statementSecret = 'statement-secret-4f1c9a';
    secrets.add('SQL parameter', statementSecret);
    server.app.get('/test/unique-violation', async () => {
      const [someone] = await server.ctx.db.select().from(users).limit(1);
      await server.ctx.db
        .insert(users)
        .values({ email: someone!.email, passwordHash: statementSecret });
    });
    server.app.get('/test/refused-value', async () => {
      await server.ctx.db.execute(sql`select ${statementSecret}::uuid`);
    });

    const origin = await server.app.listen({ host: '127.0.0.1', port: 0 });
    const fx = await contractFixture(server);
    for (const who of [fx.admin, fx.sender, fx.receiver, fx.outsider]) {
      secrets.add('session cookie', who.headers.cookie!.split('=')[1]);
    }
    await setContractSettings(server, fx.contract.id, { can_add_ad_hoc: true });
    await groupOfSenderAndReceiver(server, fx, `Team ${uniqueEmail()}`);
    const inject = (
      method: 'GET' | 'POST',
      url: string,
      headers: Record<string, string> = BASE_HEADERS,
      payload?: object,
    ) => server.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

    // An API key, created and used.
    const created = await inject('POST', '/api/api_keys/', fx.admin.headers, { name: 'script' });
    expect(created.statusCode, created.body).toBe(201);
    const apiKey = created.json().key as string;
    secrets.add('API key', apiKey);
    const byKey = await inject('GET', '/api/api_keys/', {
      authorization: `${API_KEY_SCHEME} ${apiKey}`,
    });
    expect(byKey.statusCode).toBe(200);

    // A package to a member and to an address without an account (who gets a link with a key).
    const external = uniqueEmail('partner');
    const sender = new TestUploader(server, origin, fx.sender.headers);
    const { small, slabbed, all } = everyKindOfFile();
    const pkg = await sender.createOf(all, {
      contract: fx.contract.slug,
      name: 'Secrets',
      recipients: [{ id: fx.receiver.user.id }, { email: external }],
    });
    const { grants } = await sender.send(all, { pkg }, { slabbed });
    expect(grants.length).toBeGreaterThan(0);
    for (const grant of grants) {
      secrets.addSignature('TempURL signature', grant.tempurl_data.temp_url);
      // Each slab and segment is PUT with a grant of its own, through the embedded store.
      for (const object of grant.tempurl_data.objects) {
        secrets.addSignature('object PUT signature', object.temp_url);
      }
      secrets.add('FormPost signature', grant.bulk_data.file_data[0]!.sig);
    }

    const partnerMail = await server.waitForMail((m) => m.to.includes(external));
    const partnerLink = new URL(linkIn(partnerMail));
    secrets.add('external key', partnerLink.searchParams.get('key'));
    // The partner opens the link: the web app's page, served by the fallback.
    await inject('GET', partnerLink.pathname + partnerLink.search);

    // Grants for the whole package and one file, each fetched by its token URL.
    for (const path of ['', small[0]!.path.split('/').map(encodeURIComponent).join('/')]) {
      const grant = await inject(
        'GET',
        `/api/packages/${pkg.slug}/download/${path}`,
        fx.receiver.headers,
      );
      expect(grant.statusCode, grant.body).toBe(200);
      const url = new URL(grant.json().download_url as string);
      secrets.add('download token', url.pathname.split('/')[3]);
      const head = await fetch(origin + url.pathname, { method: 'HEAD' });
      expect(head.status).toBe(200);
      const body = await fetch(origin + url.pathname, { headers: { range: 'bytes=0-99' } });
      expect(body.status).toBe(206);
      await body.arrayBuffer();
    }

    // An invitation: the activation link is opened, checked and used.
    const invited = uniqueEmail('invited');
    const added = await inject(
      'POST',
      `/api/contracts/${fx.contract.slug}/users/`,
      fx.admin.headers,
      {
        first_name: 'In',
        last_name: 'Vited',
        email: invited,
      },
    );
    expect(added.statusCode, added.body).toBe(201);
    const activation = uidAndToken(linkIn(await server.waitForMail((m) => m.to.includes(invited))));
    secrets.add('activation token', activation.token);
    secrets.add('password', NEW_PASSWORD);
    await inject('GET', `/activate/${activation.uid}/${activation.token}`);
    const checked = await inject(
      'POST',
      '/api/user/activation_token_check/',
      BASE_HEADERS,
      activation,
    );
    expect(checked.statusCode, checked.body).toBe(200);
    const activated = await inject('POST', '/api/user/activate/', BASE_HEADERS, {
      ...activation,
      name: 'In Vited',
      password: NEW_PASSWORD,
      password_confirm: NEW_PASSWORD,
    });
    expect(activated.statusCode, activated.body).toBe(200);

    // A forgotten password: the reset link is opened, checked and used.
    const asked = await inject('POST', '/api/user/forgot_password/', BASE_HEADERS, {
      email: fx.receiver.user.email,
    });
    expect(asked.statusCode).toBe(200);
    const resetMail = await server.waitForMail(
      (m) => m.to.includes(fx.receiver.user.email) && m.text.includes('/resetpassword/'),
    );
    const reset = uidAndToken(linkIn(resetMail));
    secrets.add('reset token', reset.token);
    secrets.add('password', RESET_PASSWORD);
    await inject('GET', `/resetpassword/${reset.uid}/${reset.token}`);
    expect(
      (await inject('POST', '/api/user/reset_password_check/', BASE_HEADERS, reset)).statusCode,
    ).toBe(200);
    const wasReset = await inject('POST', '/api/user/reset_password/', BASE_HEADERS, {
      ...reset,
      password: RESET_PASSWORD,
      password_confirm: RESET_PASSWORD,
    });
    expect(wasReset.statusCode, wasReset.body).toBe(200);

    expect((await inject('GET', '/test/unique-violation')).statusCode).toBe(500);
    expect((await inject('GET', '/test/refused-value')).statusCode).toBe(500);
    await server.outbox.drain();

    const text = log.text();
    expect(secrets.leakedInto(text)).toEqual([]);
    // The requests were logged, with their secrets replaced.
    expect(text).toContain('temp_url_sig=[secret]');
    expect(text).toContain('/api/downloads/[secret]/');
    expect(text).toContain(`/activate/${activation.uid}/[secret]`);
    expect(text).toContain('key=[secret]');
    expect(text).toContain('duplicate key value violates unique constraint');
  });
});
