/** /user/tax-info: the tax form a creator fills before being paid out; once saved, shown with the tax id masked (decision 0062). */
import { useState, type FormEvent } from 'react';
import { saveTaxInfoInput, ENTITY_TYPES, type TaxInfo } from '../../../common/api/statements';
import type { z } from 'zod';
import { failureMessage, formRefusal, hasErrors, schemaErrors } from '../../api/field-errors';
import { useFormState } from '../../api/use-form-state';
import { SkinLink } from '../../app/skin';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { Page, Section } from '../../ui/Page';
import { Select } from '../../ui/Select';
import { Spinner } from '../../ui/Spinner';
import { TextField } from '../../ui/TextField';
import { useToast } from '../../ui/Toast';
import form from '../../ui/form.module.css';
import { CountrySelect } from '../accounts';
import { useSaveTaxInfo, useTaxInfo } from './api';
import styles from './statements.module.css';

type Values = Record<keyof z.input<typeof saveTaxInfoInput>, string>;
const FIELDS = new Set(['legal_name', 'entity_type', 'country', 'tax_id', 'address_line1', 'address_line2', 'city', 'region', 'postal_code']);
const ENTITY_LABELS: Record<(typeof ENTITY_TYPES)[number], string> = { individual: 'Individual', business: 'Business' };

/** The form's values from what was saved; the tax id is never sent back, so it is asked again. */
const valuesOf = (saved: TaxInfo | null | undefined): Values => ({
  legal_name: saved?.legal_name ?? '', entity_type: saved?.entity_type ?? 'individual', country: saved?.country ?? '', tax_id: '',
  address_line1: saved?.address_line1 ?? '', address_line2: saved?.address_line2 ?? '', city: saved?.city ?? '', region: saved?.region ?? '', postal_code: saved?.postal_code ?? '',
});

export function TaxInfoPage() {
  const taxInfo = useTaxInfo();
  const [editing, setEditing] = useState(false);
  return (
    <Page title="Tax information" width="narrow">
      <Section title="For your payouts" description="We need this before we pay you out, and for your year-end tax documents. Your tax id is stored encrypted and shown only by its last four characters.">
        {taxInfo.isPending ? <Spinner label="Loading your tax information" />
          : taxInfo.isError ? <Alert>{failureMessage(taxInfo.error)}</Alert>
          : taxInfo.data && !editing ? <Saved info={taxInfo.data} onEdit={() => setEditing(true)} />
          : <TaxForm saved={taxInfo.data} onSaved={() => setEditing(false)} />}
      </Section>
      <p className={styles.aside}>
        Your earnings month by month: <SkinLink to="/user/statements">statements</SkinLink>.
      </p>
    </Page>
  );
}

function Saved({ info, onEdit }: { info: TaxInfo; onEdit: () => void }) {
  const address = [info.address_line1, info.address_line2, [info.city, info.region, info.postal_code].filter(Boolean).join(' '), info.country].filter(Boolean);
  return (
    <div className={styles.saved}>
      <dl className={styles.facts} aria-label="Saved tax information">
        <dt>Legal name</dt><dd>{info.legal_name}</dd>
        <dt>Type</dt><dd>{ENTITY_LABELS[info.entity_type]}</dd>
        <dt>Tax id</dt><dd data-testid="tax-id-masked">{info.tax_id_masked}</dd>
        <dt>Address</dt><dd>{address.map((line) => <div key={line}>{line}</div>)}</dd>
      </dl>
      <div className={styles.actions}>
        <Button variant="secondary" onClick={onEdit}>Change</Button>
      </div>
    </div>
  );
}

function TaxForm({ saved, onSaved }: { saved: TaxInfo | null | undefined; onSaved: () => void }) {
  const save = useSaveTaxInfo();
  const toast = useToast();
  const state = useFormState<Values>(() => valuesOf(saved));
  const { values, errors, field } = state;
  const text = (name: keyof Values) => ({ value: values[name], error: errors[name], onChange: (e: { target: { value: string } }) => field(name)(e.target.value) });

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (save.isPending) return;
    state.setMessage(null);
    const problems = schemaErrors(saveTaxInfoInput, values);
    if (hasErrors(problems)) return state.setErrors(problems);
    try {
      await save.mutateAsync(saveTaxInfoInput.parse(values));
    } catch (error) {
      return state.refuse(formRefusal(error, FIELDS));
    }
    toast({ title: 'Tax information saved', tone: 'success' });
    onSaved();
  };

  return (
    <form className={form.form} onSubmit={(e) => void onSubmit(e)} noValidate aria-label="Tax information">
      <Alert>{state.message}</Alert>
      <TextField label="Legal name" autoComplete="name" maxLength={200} {...text('legal_name')} />
      <div className={form.row}>
        <Select label="Type" options={ENTITY_TYPES.map((value) => ({ value, label: ENTITY_LABELS[value] }))} {...text('entity_type')} />
        <CountrySelect value={values.country} onChange={field('country')} error={errors.country} />
      </div>
      <TextField label="Tax id" autoComplete="off" spellCheck={false} maxLength={40} hint={saved ? `Saved: ${saved.tax_id_masked}. Enter it again to save changes.` : 'SSN or EIN in the US, or your country\'s tax number.'} {...text('tax_id')} />
      <TextField label="Street address" autoComplete="address-line1" maxLength={200} {...text('address_line1')} />
      <TextField label="Address line 2 (optional)" autoComplete="address-line2" maxLength={200} {...text('address_line2')} />
      <div className={form.row}>
        <TextField label="City" autoComplete="address-level2" maxLength={100} {...text('city')} />
        <TextField label="State or region (optional)" autoComplete="address-level1" maxLength={100} {...text('region')} />
      </div>
      <TextField label="Postal code (optional)" autoComplete="postal-code" maxLength={20} {...text('postal_code')} />
      <div className={styles.actions}>
        <Button type="submit" loading={save.isPending}>Save</Button>
      </div>
    </form>
  );
}
