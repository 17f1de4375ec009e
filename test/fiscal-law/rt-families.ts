import { epsonFpmateFactory } from '../../drivers/epson-fpmate/index.js';
import { type DepartmentClass, startFpmateSimulator } from '../../drivers/epson-fpmate/simulator/index.js';
import { SIM_DEPARTMENTS } from '../../drivers/epson-fpmate/simulator/programming.js';
import { SERIAL as CUSTOM_SERIAL, customRig } from '../drivers/custom-rt/helpers.js';
import { QUICK_DRIVER } from '../drivers/epson-fpmate/helpers.js';
import { rchRig, SERIAL } from '../drivers/rch-rt/helpers.js';
import { benchOf, type LawFamily, lawDocs, recordedRig, recorder } from './law-bench.js';

/**
 * The fiscal law suite's RT families, one entry each (issue 39: "over every RT family"): a case
 * written once runs on every family registered in `LAW_FAMILIES`, through the family's real driver
 * to its printer simulator, and reads what the printer booked in one shape (`LawDoc`,
 * law-bench.ts). A family joins by adding its entry; a case that does not apply to a family names
 * why in the family's `notApplicable`, with the source.
 */

/** Why neither an Epson refund nor an Epson void carries the original's lottery code. */
const EPSON_NO_LOTTERY_FIELD =
  'Epson’s refund and void name their original by the reference line alone (printRecMessage messageType 4, fiskaltrust EpsonCommandFactory.cs); printRecLotteryID is a sale’s (fiskaltrust Models/FiscalReceipt.cs): the protocol has no field for it';

const epson: LawFamily = {
  name: 'Epson',
  driver: 'epson-fpmate',
  requests: { document: /<printerFiscalReceipt>/, check: /command="9205"/ },
  depositForm: /<printRecItemAdjustment [^>]*adjustmentType="10"/,
  notApplicable: {
    refundCarriesLottery: EPSON_NO_LOTTERY_FIELD,
    voidCarriesLottery: EPSON_NO_LOTTERY_FIELD,
  },
  readme: 'drivers/epson-fpmate/README.md',
  async start(setup = {}) {
    const departments: Record<number, DepartmentClass> = { ...SIM_DEPARTMENTS };
    const sim = await startFpmateSimulator({
      host: '127.0.0.1',
      port: 0,
      departments,
      refusedLotteryCodes: setup.refusedLotteryCodes ?? [],
    });
    const options = epsonFpmateFactory.configSchema.parse({
      url: sim.url,
      ...QUICK_DRIVER,
      dailyClosure: { enabled: false },
      ...setup.options,
    });
    const rec = recorder();
    return benchOf(rec, {
      serial: '99MEY123456',
      driver: epsonFpmateFactory.create(options, rec.ctx),
      requests: epson.requests,
      printed: () => lawDocs(sim.printed),
      // Department 2 carries the 10 % lines (the driver's default map, the simulator's default).
      programTenPercent: async (rate) => {
        departments[2] = { rate };
      },
      stop: () => sim.close(),
    });
  },
};

const custom: LawFamily = {
  name: 'Custom',
  driver: 'custom-rt',
  requests: { document: /<printerFiscalReceipt>/, check: /checkOnly="1"/ },
  depositForm: /<printRecAdvancePayments amount="\d+">/,
  notApplicable: {
    lotteryCheckRefused:
      'Custom’s manuals name no status for a wrong lottery check character (XML status guide pp.132–149, directIO manual pp.299–312): nothing to fall back from',
  },
  readme: 'drivers/custom-rt/README.md',
  async start(setup = {}) {
    // The Custom suite's rig (test/drivers/custom-rt/helpers.ts): the printer programmed as the driver expects.
    const { rec, rig } = await recordedRig((o) => customRig({ ...o, programmed: true }), setup.options);
    return benchOf(rec, {
      serial: CUSTOM_SERIAL,
      driver: rig.driver,
      requests: custom.requests,
      printed: () => lawDocs(rig.sim.printed),
      // The technician's `setVatRate` (XML p.116) on slot 2, the driver's 10 % slot.
      programTenPercent: async (rate) => {
        const auth = Buffer.from(`${CUSTOM_SERIAL}:${CUSTOM_SERIAL}`).toString('base64');
        const body = `<printerCommand><setVatRate numVat="2" vatRate="${String(rate * 100).padStart(4, '0')}"></setVatRate></printerCommand>`;
        const answer = await fetch(`${rig.sim.url}/xml/printer.htm`, {
          method: 'POST',
          headers: { authorization: `Basic ${auth}` },
          body,
        });
        if (!(await answer.text()).includes('success="true"')) throw new Error('setVatRate refused');
      },
      stop: () => rig.sim.close(),
    });
  },
};

/** Why RCH's programming cannot be checked, so neither is read again (README, "What a first real printer must confirm"). */
const RCH_PROGRAMMING_UNREAD =
  'no public source shows which VAT slot an RCH department carries as the web service answers it: the VAT table’s rows are public (linokoetting/iconic.mytrade.gutenbergPrinter-rch FiscalPrinterDriver.java getVATTableEntry, `<</?C/&3`), but lucafabbri/rch-driver-js src/models/Department.ts reads a department’s slot and its goods/services type from the same character of the dump, and Leahcim12/optyker-web rch-connector/Diagnostica-Configurazione-RCH.ps1 keeps the web service’s answer to `<</?C` as raw data it does not verify (manual v14 p.62); the driver checks no programming, so there is none to read again';

const rch: LawFamily = {
  name: 'RCH',
  driver: 'rch-rt',
  // One `<cmd>` per native command, `&` escaped (drivers/rch-rt/service.ts); `/*1` checks only.
  requests: { document: /<cmd>=[Rrk]/, check: /<cmd>=[rk]\/[^<]*\/\*1</ },
  // `=R<dept>/$<cents>/&2/(…)`, the advance (acconto) line: drivers/rch-rt/commands.ts depositLine.
  depositForm: /<cmd>=R\d+\/\$5000\/&amp;2\//,
  notApplicable: {
    programmingReadBeforeRefusing: RCH_PROGRAMMING_UNREAD,
    programmingReadAfterZ: RCH_PROGRAMMING_UNREAD,
    refundOfOtherPrinter:
      'no public source shows how an RCH refund names another printer’s receipt: `=r` carries the date, Z and number alone (lucafabbri/rch-driver-js-core src/Core.ts returnGoods), the serial field is the void’s (`=k`, returnReceipt), and the JavaPOS driver hands the printer id to its JavaPOS service, not to a native command (linokoetting/iconic.mytrade.gutenbergPrinter-rch refund/RefundCommands.java, directIO 6000); the driver refuses such a refund before sending anything',
    lotteryCheckRefused:
      'no public source shows what an RCH printer answers to a lottery code whose check character is wrong: the only public error codes are 0 and 101 (Leahcim12/optyker-web rch-connector/rch-optyker-connector.ps1 Get-StatusProbes), and the JavaPOS driver checks a code itself before sending it (linokoetting/iconic.mytrade.gutenbergPrinter-rch lottery/LotteryCommands.java SendLotteryCode): nothing to fall back from',
    voidCarriesLottery:
      'RCH’s void is one command, `=k/&DDMMYY/[Z/]N` and the original’s serial (lucafabbri/rch-driver-js-core src/Core.ts returnReceipt), printed whole at once (Leahcim12/optyker-web rch-connector/rch-optyker-connector.ps1 Assert-FiscalDocument): it has no field for a lottery code, and the JavaPOS void sends none (linokoetting/iconic.mytrade.gutenbergPrinter-rch rtvoid/VoidCommands.java)',
  },
  readme: 'drivers/rch-rt/README.md',
  async start(setup = {}) {
    // The RCH suite's rig (test/drivers/rch-rt/helpers.ts): the printer programmed as the driver expects.
    const { rec, rig } = await recordedRig(rchRig, setup.options);
    return benchOf(rec, {
      serial: SERIAL,
      driver: rig.driver,
      requests: rch.requests,
      printed: () => lawDocs(rig.sim.documents.map((d) => ({ ...d, doc: d.number }))),
      stop: () => rig.sim.close(),
    });
  },
};

/** Every RT family the suite renders its cases for; a family joins by adding its entry. */
export const LAW_FAMILIES: readonly LawFamily[] = [epson, custom, rch];
