import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IppClient } from '../../../drivers/ipp-printer/ipp-client.js';
import {
  attr,
  firstGroup,
  type IppOutAttribute,
  type IppOutGroup,
  v,
} from '../../../drivers/ipp-printer/ipp-codec.js';
import { GroupTag, Operation, statusName, ValueTag } from '../../../drivers/ipp-printer/ipp-constants.js';
import { type IppSimulator, startIppSimulator } from '../../../drivers/ipp-printer/simulator/index.js';
import { tinyPdf } from '../../../src/platform-simulator/pdf.js';
import { createHttpClient } from '../../../src/transport/http.js';
import { requireTool } from '../../helpers/tools.js';
import { DBUS_DAEMON, IPPEVEPRINTER, type Ippeve, startIppeveprinter } from './ippeveprinter.js';

/**
 * The simulator is checked against a real IPP printer, not against our driver: the same requests
 * go to CUPS's ippeveprinter (OpenPrinting/cups:tools/ippeveprinter.c) and to the simulator, and
 * the answers must agree in status, in which attributes were refused, and in the syntax (value
 * tag) of every attribute the driver reads.
 */
const run =
  requireTool(IPPEVEPRINTER, 'the simulator is compared with ippeveprinter') &&
  requireTool(DBUS_DAEMON, 'ippeveprinter needs a D-Bus');

const pdf = tinyPdf(['compare']);
const doc = { length: pdf.length, write: (t: Buffer, o: number) => void pdf.copy(t, o) };
const user = attr('requesting-user-name', v.name('compare'));
/** Printer attributes the driver reads (a subset of its Get-Printer-Attributes list): asked for, and their value tags compared. */
const STATUS_ATTRIBUTES = [
  'printer-state',
  'printer-state-reasons',
  'printer-is-accepting-jobs',
  'document-format-supported',
  'copies-supported',
  'printer-up-time',
  'queued-job-count',
  'printer-name',
];

interface Case {
  what: string;
  op: number;
  attrs: IppOutAttribute[];
  groups?: IppOutGroup[];
  document?: boolean;
  path?: 'wrong';
  /** Attributes whose value tags must agree, in this group. */
  tags?: { group: number; names: string[] };
}

const CASES: Case[] = [
  {
    what: 'Get-Printer-Attributes with the driver’s attributes',
    op: Operation.getPrinterAttributes,
    attrs: [user, attr('requested-attributes', ...STATUS_ATTRIBUTES.map((n) => v.keyword(n)))],
    tags: {
      group: GroupTag.printer,
      names: STATUS_ATTRIBUTES,
    },
  },
  {
    what: 'Print-Job of an unsupported format',
    op: Operation.printJob,
    attrs: [user, attr('job-name', v.name('c1')), attr('document-format', v.mime('application/msword'))],
    document: true,
  },
  {
    what: 'Print-Job of 0 copies',
    op: Operation.printJob,
    attrs: [user, attr('job-name', v.name('c2')), attr('document-format', v.mime('application/pdf'))],
    groups: [{ tag: GroupTag.job, attributes: [attr('copies', v.integer(0))] }],
    document: true,
  },
  {
    what: 'Print-Job without a document',
    op: Operation.printJob,
    attrs: [user, attr('job-name', v.name('c3')), attr('document-format', v.mime('application/pdf'))],
  },
  {
    what: 'Print-Job accepted',
    op: Operation.printJob,
    attrs: [user, attr('job-name', v.name('c4')), attr('document-format', v.mime('application/pdf'))],
    groups: [{ tag: GroupTag.job, attributes: [attr('copies', v.integer(2))] }],
    document: true,
    tags: { group: GroupTag.job, names: ['job-id', 'job-uri', 'job-state', 'job-state-reasons'] },
  },
  {
    what: 'Get-Jobs which-jobs=all, my-jobs',
    op: Operation.getJobs,
    attrs: [
      user,
      attr('which-jobs', v.keyword('all')),
      attr('my-jobs', v.boolean(true)),
      attr(
        'requested-attributes',
        ...[
          'job-id',
          'job-name',
          'job-originating-user-name',
          'job-state',
          'time-at-creation',
          'job-impressions-completed',
        ].map((n) => v.keyword(n)),
      ),
    ],
    tags: {
      group: GroupTag.job,
      names: [
        'job-id',
        'job-name',
        'job-originating-user-name',
        'job-state',
        'time-at-creation',
        'job-impressions-completed',
      ],
    },
  },
  {
    what: 'Get-Jobs my-jobs without a user',
    op: Operation.getJobs,
    attrs: [attr('my-jobs', v.boolean(true))],
  },
  {
    what: 'Get-Jobs with an unknown which-jobs',
    op: Operation.getJobs,
    attrs: [user, attr('which-jobs', v.keyword('fancy'))],
  },
  {
    what: 'Get-Job-Attributes of an unknown job',
    op: Operation.getJobAttributes,
    attrs: [attr('job-id', v.integer(9999))],
  },
  {
    what: 'Cancel-Job of an unknown job',
    op: Operation.cancelJob,
    attrs: [attr('job-id', v.integer(9999)), user],
  },
  { what: 'an operation the printer does not support', op: 0x0033, attrs: [] },
  {
    what: 'a printer path that does not exist',
    op: Operation.getPrinterAttributes,
    attrs: [],
    path: 'wrong',
  },
];

describe.runIf(run)('the IPP printer simulator answers like ippeveprinter', () => {
  let eve: Ippeve;
  let sim: IppSimulator;
  const client = new IppClient(createHttpClient(), 4 << 20);

  beforeAll(async () => {
    eve = await startIppeveprinter({ formats: ['application/pdf', 'image/jpeg'] });
    sim = await startIppSimulator({
      printers: [
        {
          name: 'Compare',
          path: '/ipp/print',
          formats: ['application/octet-stream', 'application/pdf', 'image/jpeg'],
          pageMs: 1,
        },
      ],
    });
  }, 30_000);

  afterAll(async () => {
    await sim?.close();
    await eve?.stop();
  });

  async function ask(base: string, c: Case) {
    const uri = c.path === 'wrong' ? base.replace('/ipp/print', '/ipp/nothing') : base;
    const answer = await client.call(
      uri,
      c.op,
      c.attrs,
      { timeoutMs: 5000, ...(c.document ? { document: doc } : {}) },
      c.groups ?? [],
    );
    const unsupported = [...firstGroup(answer.response, GroupTag.unsupported).keys()].sort();
    const tags: Record<string, number | undefined> = {};
    if (c.tags) {
      const group = firstGroup(answer.response, c.tags.group);
      for (const n of c.tags.names) tags[n] = group.get(n)?.tag;
    }
    return { status: statusName(answer.status), unsupported, tags };
  }

  for (const c of CASES) {
    it(c.what, async () => {
      const real = await ask(eve.uri, c);
      const ours = await ask(sim.printerUri('Compare'), c);
      expect(ours).toEqual(real);
      for (const tag of Object.values(real.tags)) expect(tag).toBeGreaterThan(ValueTag.noValue);
    });
  }
});
