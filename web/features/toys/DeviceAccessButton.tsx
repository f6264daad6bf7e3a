/** The host's device-access button, with the connected viewer's avatar while someone holds access (spec part 2 §2 screen 10). */
import type { ToyAccessRecord } from '../../../common/api/toys';
import { Avatar } from '../../ui/Avatar';
import { Button } from '../../ui/Button';

export function DeviceAccessButton({ record, onClick }: { record: ToyAccessRecord | null; onClick: () => void }) {
  const holder = record?.access === 'APPROVED' ? record.viewer : null;
  return (
    <Button variant="secondary" onClick={onClick} icon={holder ? <Avatar name={holder.sname} src={holder.avatar} size={22} /> : <ToyIcon />} aria-label={holder ? `Device access: ${holder.sname}` : 'Device access'}>
      Device access
    </Button>
  );
}

function ToyIcon() {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
      <path d="M4 12h2M18 12h2M7 7l1.5 1.5M17 7l-1.5 1.5" />
      <rect x="9" y="4" width="6" height="16" rx="3" />
    </svg>
  );
}
