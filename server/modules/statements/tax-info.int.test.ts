/** The tax form through HTTP (decision 0062): kept sealed, shown masked, the owner's alone; an administrator reads it masked and is audited. */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as api from '../../../common/api/statements';
import { MSG } from '../../../common/messages';
import { startTestApp, type SignedInUser, type TestApp } from '../../testing/harness';
import { HttpSession } from '../../testing/http-session';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const FORM = {
  legal_name: 'Ada Lovelace', entity_type: 'individual', country: 'us', tax_id: '987-65-4321',
  address_line1: '12 Analytical Row', city: 'London', region: 'Greater London', postal_code: 'N1 9GU',
} as const;

async function filled(): Promise<SignedInUser> {
  const creator = await t.given.signedInUser();
  await creator.client.call(api.saveTaxInfo, FORM);
  return creator;
}

const storedRow = async (userId: number) =>
  JSON.stringify((await t.resources.database.db.execute(sql`select * from tax_information where user_id = ${userId}`)).rows[0]);

describe('tax information', () => {
  it('keeps the tax id sealed, answers it masked, and counts the form filled', async () => {
    const creator = await t.given.signedInUser();
    expect(await t.app.services.taxInfo.complete(creator.user.id)).toBe(false);
    expect((await creator.client.call(api.getTaxInfo, {})).tax_info).toBeNull();

    const saved = await creator.client.call(api.saveTaxInfo, FORM);
    expect(saved.tax_info).toMatchObject({ legal_name: 'Ada Lovelace', entity_type: 'individual', country: 'US', tax_id_masked: '•••• 4321', address_line2: null, postal_code: 'N1 9GU' });
    const read = await creator.client.call(api.getTaxInfo, {});
    expect(read.tax_info).toEqual(saved.tax_info);
    expect(JSON.stringify(read)).not.toContain('987654321');
    expect(JSON.stringify(read)).not.toContain('987-65-4321');
    expect(await t.app.services.taxInfo.complete(creator.user.id)).toBe(true);

    // The database holds the id only sealed; the service opens it (year-end filings), for this user alone.
    const row = await storedRow(creator.user.id);
    expect(row).not.toContain('987654321');
    expect(row).not.toContain('65-4321');
    expect(row).toContain('"tax_id_sealed":"v1.');
    expect(await t.app.services.taxInfo.taxIdOf(creator.user.id)).toBe('987654321');

    // A new form replaces the old one, sealed afresh.
    const before = await storedRow(creator.user.id);
    await creator.client.call(api.saveTaxInfo, { ...FORM, entity_type: 'business', legal_name: 'Lovelace Engines Ltd', tax_id: 'GB 123 4567 89' });
    expect((await creator.client.call(api.getTaxInfo, {})).tax_info).toMatchObject({ entity_type: 'business', tax_id_masked: '•••• 6789' });
    expect(await storedRow(creator.user.id)).not.toBe(before);
    expect(await t.app.services.taxInfo.taxIdOf(creator.user.id)).toBe('GB123456789');
  });

  it('refuses a sealed id moved to another user\'s row', async () => {
    const [a, b] = [await filled(), await filled()];
    await t.resources.database.db.execute(sql`update tax_information set tax_id_sealed = (select tax_id_sealed from tax_information where user_id = ${a.user.id}) where user_id = ${b.user.id}`);
    await expect(t.app.services.taxInfo.taxIdOf(b.user.id)).rejects.toThrow(/does not open/);
  });

  it('refuses what is not a tax form, naming the field, without repeating the id', async () => {
    const creator = await t.given.signedInUser();
    const short = await creator.client.refusal(api.saveTaxInfo, { ...FORM, tax_id: '12-3' });
    expect(short.status).toBe(400);
    expect(short.body.message).toBe(MSG.taxIdInvalid);
    expect(JSON.stringify(short.body)).not.toContain('12-3');
    expect((await creator.client.refusal(api.saveTaxInfo, { ...FORM, tax_id: 'ab$cd%ef' })).body.message).toBe(MSG.taxIdInvalid);
    expect((await creator.client.refusal(api.saveTaxInfo, { ...FORM, country: 'XX' })).body.message).toBe(MSG.countryRequired);
    expect((await creator.client.refusal(api.saveTaxInfo, { ...FORM, entity_type: 'trust' as 'business' })).status).toBe(400);
    expect((await creator.client.refusal(api.saveTaxInfo, { ...FORM, legal_name: '  ' })).body.message).toBe('Legal name is required');
    // Nobody fills another's form: there is no field for whose it is.
    expect((await creator.client.refusal(api.saveTaxInfo, { ...FORM, user_id: 1 } as typeof FORM)).status).toBe(400);
    expect((await creator.client.call(api.getTaxInfo, {})).tax_info).toBeNull();
  });

  it("refuses another user's, a visitor; an administrator reads it masked, and that is audited", async () => {
    const creator = await filled();
    const stranger = await t.given.signedInUser();
    const refused = await stranger.client.refusal(api.getTaxInfo, { user_id: creator.user.id });
    expect(refused).toMatchObject({ status: 403, body: { message: MSG.ownFinancesOnly } });
    expect((await HttpSession.over(t.app).refusal(api.getTaxInfo, {})).status).toBe(401);

    const admin = await t.given.signedInUser({ role: 'admin' });
    const seen = await admin.client.call(api.getTaxInfo, { user_id: creator.user.id });
    expect(seen).toMatchObject({ user_id: creator.user.id, tax_info: { tax_id_masked: '•••• 4321' } });
    expect(JSON.stringify(seen)).not.toContain('987654321');
    const audited = await t.resources.database.db.execute(sql`select actor_id::int as actor, target_id from audit_log where action = 'user.tax-info-read'`);
    expect(audited.rows).toContainEqual({ actor: admin.user.id, target_id: String(creator.user.id) });
  });
});
