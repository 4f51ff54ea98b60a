import type { ParticipantSummary } from '@/lib/studies/admin';
import type { StudyReport } from '@/lib/studies/report';
import { participantName } from './participant-table';

/** Who answered an attention check otherwise than asked, and what they answered. */
export function AttentionPanel({ attention, labels, participants }: {
  attention: StudyReport['attention']; labels: Map<string, string>; participants: ParticipantSummary[];
}) {
  if (!attention.checks) return <p className="text-sm text-slate-500">This study has no attention check.</p>;
  const byId = new Map(participants.map((p) => [p.id, p]));
  return (
    <div className="space-y-2 text-sm" data-testid="attention">
      <p>
        {attention.checks} attention {attention.checks === 1 ? 'check' : 'checks'};{' '}
        {attention.failed.length === 0 ? 'nobody failed one.' : `${attention.failed.length} ${attention.failed.length === 1 ? 'participant' : 'participants'} failed at least one${attention.excluded ? ', left out of the results on this page' : ''}.`}
      </p>
      {attention.failed.length > 0 && (
        <table className="w-full" data-testid="attention-failures">
          <thead className="text-left text-slate-600">
            <tr><th scope="col" className="py-1">Participant</th><th scope="col">Failed</th></tr>
          </thead>
          <tbody>
            {attention.failed.map((f) => (
              <tr key={f.participantId} className="border-t border-slate-100 align-top">
                <td className="py-1 pr-3">{participantName(byId.get(f.participantId), f.participantId)}</td>
                <td>
                  <ul>
                    {f.failures.map((x) => (
                      <li key={`${x.itemId}:${x.dimension}`}>
                        “{x.text}” ({labels.get(x.dimension) ?? x.dimension}): answered {x.given}, asked for {x.accept.join(' or ')}
                      </li>
                    ))}
                  </ul>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
