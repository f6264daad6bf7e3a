/** Fields that sign-up, the social sign-up completion and the settings share. */
import type { SelectHTMLAttributes } from 'react';
import { Link } from 'react-router';
import { SALUTATIONS } from '../../../common/api/accounts';
import { useSkin } from '../../app/skin';
import { Checkbox } from '../../ui/Checkbox';
import { Select } from '../../ui/Select';
import { useCountries } from '../system';

type CountrySelectProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'onChange' | 'id'> & {
  value: string;
  onChange: (code: string) => void;
  error?: string | undefined;
};

export function CountrySelect({ value, onChange, error, ...rest }: CountrySelectProps) {
  const countries = useCountries();
  const options = (countries.data ?? []).map((c) => ({ value: c.code, label: c.name }));
  return (
    <Select
      label="Country"
      placeholder={countries.isPending ? 'Loading countries…' : 'Select your country'}
      options={options}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      error={error}
      autoComplete="country"
      {...rest}
    />
  );
}

export function TermsCheckbox({ checked, onChange, error }: { checked: boolean; onChange: (checked: boolean) => void; error?: string | undefined }) {
  const skin = useSkin();
  return (
    <Checkbox checked={checked} onChange={(e) => onChange(e.target.checked)} error={error}>
      I accept the{' '}
      <Link to={skin.links.terms} target="_blank">
        Terms of Service
      </Link>{' '}
      and the{' '}
      <Link to={skin.links.privacy} target="_blank">
        Privacy Policy
      </Link>
    </Checkbox>
  );
}

export type Salutation = (typeof SALUTATIONS)[number];

interface SalutationSelectProps {
  label: string;
  placeholder: string;
  /** The order the screen lists them in. */
  order?: readonly Salutation[];
  value: Salutation | '';
  onChange: (value: Salutation | '') => void;
  error?: string | undefined;
}

export function SalutationSelect({ order = SALUTATIONS, onChange, ...rest }: SalutationSelectProps) {
  const options = order.map((s) => ({ value: s, label: s.charAt(0) + s.slice(1).toLowerCase() }));
  return <Select options={options} onChange={(e) => onChange(e.target.value as Salutation | '')} {...rest} />;
}
