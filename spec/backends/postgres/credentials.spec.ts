import { randomBytes } from 'node:crypto';
import pg from 'pg';
import * as assert from 'uvu/assert';
import { test } from 'uvu';
import { postgresUrlFactory } from '../../../src/backends/postgres/index.ts';
import { builtinSuite } from '../../helpers/builtin-suite.ts';
import { runSuite } from '../../../src/conformance/run-suite.ts';
import { createReporters } from '../../../src/conformance/reporters/create-reporters.ts';
import { resolveDecisions } from '../../../src/core/decisions.ts';
import { realServerTest } from './engines.ts';
import { tempEnv, VM, pgView } from './helpers.ts';

// scripts/pg-cluster.sh makes the role prose_pw the one role that must give its password (scram-sha-256).
const ROLE = 'prose_pw';

function roleUrl(adminUrl: string, password: string): string {
  const u = new URL(adminUrl);
  u.username = ROLE;
  u.password = password;
  return u.toString();
}

function assertHidden(text: string, secrets: string[], what: string) {
  for (const s of secrets) assert.not.ok(text.includes(s), `${what} shows a secret: ${text.slice(0, 400)}`);
}

realServerTest(
  'a URL with a password: neither URL nor password ever shows, right or wrong [real server]',
  async (adminUrl) => {
    const password = `pw-${randomBytes(9).toString('hex')}`;
    const wrong = `wrong-${randomBytes(9).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`DROP ROLE IF EXISTS ${ROLE}`).catch(() => undefined);
    await admin.query(`CREATE ROLE ${ROLE} LOGIN CREATEDB PASSWORD ${pg.escapeLiteral(password)}`);
    const goodUrl = roleUrl(adminUrl, password);
    const badUrl = roleUrl(adminUrl, wrong);
    const secrets = [password, wrong, goodUrl, badUrl, encodeURIComponent(password)];
    const env = tempEnv();
    try {
      // Wrong password: a clear error that says what to do, with nothing secret in any form of it.
      const bad = postgresUrlFactory(badUrl);
      const err = await bad.open(env).then(
        () => undefined,
        (e: any) => e,
      );
      assert.ok(err, 'the wrong password is refused');
      assert.is(err.code, 'E_BACKEND');
      assert.match(err.message, /refused the credentials/);
      assert.match(err.hint, /user and password/);
      assertHidden(
        [err.message, err.hint, err.stack, JSON.stringify(err), String(err.cause ?? '')].join('\n'),
        secrets,
        'the credentials error',
      );

      // Right password: names, descriptions, settings, errors and a whole conformance report stay clean.
      const good = postgresUrlFactory(goodUrl);
      assertHidden(
        JSON.stringify({ name: good.name, description: good.description, settings: good.settings }),
        secrets,
        'the factory',
      );
      const b = await good.open(env);
      const { run } = await b.call('createRun', { program: 'p' }, VM);
      assert.is((await b.call('getRun', { run }, VM)).program, 'p');
      const qerr = await pgView(b)
        .query('SELECT * FROM openprose.no_such_table')
        .then(
          () => undefined,
          (e: any) => e,
        );
      assertHidden(`${qerr?.message}\n${qerr?.stack}`, secrets, 'a query error');
      await b.close();
      await good.dispose!(env);

      let report = '';
      const reporter = createReporters(
        'pretty',
        (s) => {
          report += s;
        },
        { verbose: true },
      );
      const results = await runSuite({
        suite: builtinSuite(),
        factories: [good],
        decisions: resolveDecisions({}),
        filter: { areas: [], ids: ['scope-*'] },
        listener: reporter,
      });
      reporter.finish(results);
      assert.ok(report.length > 0, 'a report was written');
      assertHidden(report, secrets, 'the conformance report');
    } finally {
      env.cleanup();
      const dbs = await admin.query(
        `SELECT datname FROM pg_database d JOIN pg_roles r ON r.oid = d.datdba WHERE r.rolname = $1`,
        [ROLE],
      );
      for (const { datname } of dbs.rows)
        await admin.query(`DROP DATABASE ${pg.escapeIdentifier(datname)} WITH (FORCE)`);
      await admin.query(`DROP ROLE IF EXISTS ${ROLE}`);
      await admin.end();
    }
  },
);

test.run();
