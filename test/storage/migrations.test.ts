/**
 * The migrations as released: their numbers (22 and 28 were never shipped), one file per migration named by
 * its number and what it changes, and each one's SQL byte for byte as it shipped. A released migration is
 * never edited: a change of the schema is a new migration appended to adapters/sql/migrations.ts.
 */
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { MIGRATIONS } from '../../adapters/sql/migrations.ts';

/** sha256 of each released migration's SQL. Add a row for a new migration; never change one. */
const RELEASED: readonly (readonly [number, string])[] = [
  [1, '58c40a54fa879682e467995c11d7f966563bbda0d554a8abf2c5316dc62a1176'],
  [2, '8290bb42f00487bf07112a88ca6604d0b8d22dd4fc5ffca43ab5f1a89b8ef9de'],
  [3, 'ca663a83c8c595823a485b8ce0e86d7b8ca23a9a2780b7d56f515f840e5f9744'],
  [4, '1f422050d70379039d9ef3b28a45834e47a00f00f8f226d39cd3a8c244f7f883'],
  [5, 'db6e111001a43b7be4708ec05fade45d9544cf1cae114b8b6e808786d206ae32'],
  [6, 'fa379cf7db029d8087dce3ab456cfe4876910139542683c80b7893c1d651f8df'],
  [7, 'e0a3efc3f18154d4dc6eae832bca82f868ec9bcc5d8f88ef81a09eae3fc1b88b'],
  [8, '409f6924f85b46790b516b0104d210f4f8544d73a80316a41c6146215acb2161'],
  [9, '99b7816989f85221c23cc1f691e9f4c4eae4226b0fda8431026902964ab93052'],
  [10, '58a73c940b2dd4200b356bbb001518d7fe529c3e724adaac571f43e30de5b94e'],
  [11, 'a721f247671eac4a61f1541b26a060485fe43d6a7ac1e3c0f2996a315d67dd39'],
  [12, '217b491e4753c9837efb8f395bef775c48fbab81cf3b66fa83867de05efa9b55'],
  [13, 'c233de86c71d8296dc3474ed5498e6c408587a7dbc053ea0a5dbbcb77006dde1'],
  [14, '50c3f6dd6023ae184321b6432f9fa95968c3ae7801a1beb144677bff1c03c415'],
  [15, '70ff1d5ebec0bbf9c6d8bef23d98bc9e8afe895c200cd05c47d7f18d41cbc0b5'],
  [16, 'cbf01766861ce1fee6525ab938be79064f7d03de8a877a6785c67009009f0722'],
  [17, 'f91bd193455a1162594385ffac35c08f05196492eb26260d985f886010f17fe3'],
  [18, '5512c477aa0df802724bfd0454e8d02b7817106153e061dcf036d8ac4774e6b2'],
  [19, '1c134bc57a38ba38e6129331c51fbaa02a8d37189b73c92193f04bb68677a2ec'],
  [20, '9c9f53a6f56f7e9407836e2b94b363587476cf232fb24049f14df61b6b0f4746'],
  [21, 'b4af17588d8197b11e11fda3d75889faa3b71415749c85bab01ed81e3f61192a'],
  [23, 'baea7e28e729e0d7c71cc95360ba0f2c2a51c58eeafdd446a76b1b2e23d69609'],
  [24, '64f08fdf6c6cfd4742a6cc94b16b855d1a60e9bcadf13a58d16451a91460a8c3'],
  [25, '7708795ee6203f4542889695c816b99c86365cd1c220e718b55afe72e8887618'],
  [26, '7029fadb46acfb64a3cd73dfdebe1a0b19efbf64b49016f7f4332ba50d3121cb'],
  [27, '4a86399f0856ee72c9893c45e25a0cc7728a139bd1d12247cc7ca03da234a31d'],
  [29, '46689ab1c3b79172998ef77a4b65ad7e7a6f47b27155ef96892d9d8375ad603f'],
  [30, '00d04f7a52d1e6c5adaee6d75c25032404e2e98ca8f0bcde372bb8e209332150'],
  [31, '8a6572a3d4c90af8e3cb8938b4cd648f2ed189ab849a40de91347b597c1b99cb'],
  [32, '930ab846e3f79aa0fa25c39911d00dc2619e71fd194cc30dc25dd465997dc404'],
  [33, '7d502584ed5e8237c8260b0dbd2e9961eb0de6b297085cf22fa34149eb1fe0fa'],
  [34, 'b4c8183c729e1115f6a95bad3adb2c269636b49a3b86fafe1039e5cc104341e8'],
  [35, '36b1a8be340f060b757982eff6a45ec0d36638548c3f96e043f98b969133034a'],
  [36, '451d55e739bef9f13e318722171821e96bb10372c6503a119cedb1320de3025c'],
  [37, 'c356bfb5a1025c5cdf9d8ce1443a7282c183d10c30c7ba8f677d434bc5e5cb79'],
  [38, 'fc7c53129fb49ea4c20d207fc9670650872e1ea8502ee265a76731b780da9d1b'],
  [39, 'd4104fbe2f304525a18a4fcc01ce7d2f5546941ce2dc0e467904d46cf6c646ec'],
  [40, '663add07b3bd6dc7930705c009be08365d4afbe5c3cb3bb5b8adf07ba8d3edcb'],
  [41, '588e471b5df60a9498668dcc69a7e74a0b2ffe7c864ee8030e931263a1a6d198'],
];

const test = suite('migrations as released');

test('the numbers run from 1 in order; only 22 and 28 are missing (migrations.ts says why)', () => {
  const latest = MIGRATIONS.at(-1)?.version ?? 0;
  const expected = Array.from({ length: latest }, (_, i) => i + 1).filter((v) => v !== 22 && v !== 28);
  assert.equal(
    MIGRATIONS.map((m) => m.version),
    expected,
  );
  assert.ok(latest >= 32);
});

test('each released migration has the SQL it shipped with, byte for byte', () => {
  const digest = (sql: string) => createHash('sha256').update(sql, 'utf8').digest('hex');
  assert.equal(
    MIGRATIONS.map((m) => m.version),
    RELEASED.map(([version]) => version),
    'every migration has its digest in RELEASED (a new one: add its row once it is final)',
  );
  for (const [version, sha256] of RELEASED) {
    const migration = MIGRATIONS.find((m) => m.version === version);
    assert.ok(migration, `migration ${version} is missing`);
    assert.is(
      digest(migration.sql),
      sha256,
      `migration ${version} (${migration.name}) was edited after its release: undo the edit and add a new migration`,
    );
  }
});

test('one file per migration, named by its number and what it changes', () => {
  const files = readdirSync(new URL('../../adapters/sql/migrations/', import.meta.url))
    .filter((f) => f !== 'migration.ts')
    .sort();
  const expected = MIGRATIONS.map((m) => `${String(m.version).padStart(2, '0')}-${m.name.replace(/[^a-z0-9]+/g, '-')}.ts`);
  assert.equal(files, expected);
});

test.run();
