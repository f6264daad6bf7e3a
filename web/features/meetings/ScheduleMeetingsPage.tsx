/**
 * /user/schedule-meetings: the calendar of one's meetings, hosting and invited (spec part 2 §2 screen 9,
 * §4 Calendar delete): month view first, 30-minute slots, 12-hour clock; an event opens its dialog.
 */
import FullCalendar from '@fullcalendar/react';
import dayGridPlugin from '@fullcalendar/daygrid';
import interactionPlugin from '@fullcalendar/interaction';
import timeGridPlugin from '@fullcalendar/timegrid';
import { useState } from 'react';
import { MEETING } from '../../../common/constants';
import { fill, MSG } from '../../../common/messages';
import { failureMessage } from '../../api/field-errors';
import { useSkinPath } from '../../app/skin';
import { Alert } from '../../ui/Alert';
import { ButtonLink } from '../../ui/Button';
import { PlusIcon } from '../../ui/icons';
import { Modal } from '../../ui/Modal';
import { Page } from '../../ui/Page';
import { Spinner } from '../../ui/Spinner';
import { useMeetingDetail, useMeetingList } from './api';
import { calendarEvents } from './meeting-rules';
import { MeetingSummary } from './MeetingSummary';
import { PolicyGate } from './PolicyNotice';
import styles from './meetings.module.css';

/**
 * FullCalendar injects its CSS with an icon font as a data: URL, which the content policy refuses (a
 * console error); the toolbar uses text instead, so the font's rule goes before anything renders.
 */
function dropIconFont(): void {
  for (const style of document.querySelectorAll<HTMLStyleElement>('style[data-fullcalendar]')) {
    const sheet = style.sheet;
    if (!sheet) continue;
    for (let i = sheet.cssRules.length - 1; i >= 0; i -= 1) if (sheet.cssRules[i] instanceof CSSFontFaceRule) sheet.deleteRule(i);
  }
}
if (typeof document !== 'undefined') dropIconFont();

const pad = (n: number) => String(n).padStart(2, '0');
const SLOT = `00:${pad(MEETING.calendarStepMinutes)}:00`;
const BUTTON_TEXT = { prev: '‹', next: '›', today: 'Today', month: 'Month', week: 'Week', day: 'Day' };
const TWELVE_HOUR = { hour: 'numeric', minute: '2-digit', meridiem: 'short', hour12: true } as const;

export function ScheduleMeetingsPage() {
  const skinPath = useSkinPath();
  const list = useMeetingList();
  const [openId, setOpenId] = useState<number | null>(null);
  const phone = typeof window !== 'undefined' && window.matchMedia('(max-width: 575px)').matches;

  return (
    <Page
      title="All Video Calls"
      aside={
        <ButtonLink to={skinPath('/user/create-meeting')} icon={<PlusIcon size={18} />}>
          Schedule a Video Call
        </ButtonLink>
      }
    >
      <PolicyGate>
        {list.isError && <Alert>{fill(MSG.meetingError, { message: failureMessage(list.error) })}</Alert>}
        <div className={styles.calendar} data-axe-exclude="FullCalendar: its own day-cell labels (decision 0048)">
          {list.isPending && <Spinner label="Loading your video calls" />}
          <FullCalendar
            plugins={[dayGridPlugin, timeGridPlugin, interactionPlugin]}
            initialView="dayGridMonth"
            headerToolbar={phone ? { left: 'prev,next', center: 'title', right: 'dayGridMonth,timeGridDay' } : { left: 'prev,next today', center: 'title', right: 'dayGridMonth,timeGridWeek,timeGridDay' }}
            slotDuration={SLOT}
            snapDuration={SLOT}
            slotLabelInterval={SLOT}
            slotLabelFormat={TWELVE_HOUR}
            eventTimeFormat={TWELVE_HOUR}
            height="auto"
            // Text, not FullCalendar's icon font (a data: font the content policy does not load).
            buttonIcons={false}
            buttonText={BUTTON_TEXT}
            buttonHints={{ prev: 'Previous $0', next: 'Next $0' }}
            // Blocks, not dots: the title shows (cut short on a phone) in the Hosting or Invited colour.
            eventDisplay="block"
            // A phone's day cell has room for the label only.
            displayEventTime={!phone}
            dayMaxEventRows={3}
            events={calendarEvents(list.data ?? [])}
            eventClick={({ event, jsEvent }) => {
              jsEvent.preventDefault();
              setOpenId(Number(event.id));
            }}
          />
        </div>
        {openId !== null && <MeetingDialog id={openId} onClose={() => setOpenId(null)} />}
      </PolicyGate>
    </Page>
  );
}

function MeetingDialog({ id, onClose }: { id: number; onClose: () => void }) {
  const detail = useMeetingDetail(id);
  return (
    <Modal open onOpenChange={(open) => !open && onClose()} title={detail.data?.title ?? 'Video call'}>
      {detail.data ? (
        <MeetingSummary meeting={detail.data} onDeleted={onClose} />
      ) : detail.isError ? (
        <Alert>{fill(MSG.meetingError, { message: failureMessage(detail.error) })}</Alert>
      ) : (
        <Spinner label="Loading the meeting" />
      )}
    </Modal>
  );
}
