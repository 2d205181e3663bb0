/**
 * Reviewed data: the tax jurisdictions an organisation can choose, with their rate history. Change it
 * only with a source for every rate, and keep the previous rate when a rate changes (orders are taxed
 * at the rate in force on their date). Rates are decimal strings, never floats.
 *
 * The table starts on TABLE_STARTS: a first entry dated then means "already in force then", not
 * "took effect then". Sources: the tax authorities' announcements as summarised by Tax Foundation,
 * KPMG and the European Commission's VAT rate lists, up to December 2025; a change announced later
 * is missing until someone adds it here.
 *
 * - United States: the state rate only (with the statewide local part that every sale pays in
 *   California, Utah and Virginia); county, city and district taxes are not included.
 * - EU, United Kingdom, Australia, New Zealand: the standard rate of VAT or GST.
 * - Canada: GST, or HST where the province harmonised it; provincial PST and QST are not included.
 */
export const TABLE_STARTS = '2024-01-01';

export type TaxKind = 'sales_tax' | 'vat' | 'gst' | 'hst';

export type RateChange = { rate: string; effectiveFrom: string };

export type Jurisdiction = {
  /** ISO 3166: "US-CA", "DE", "CA-ON". */
  code: string;
  name: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  kind: TaxKind;
  /**
   * Whether shelf prices there are shown with the tax in them: an organisation that chose this
   * jurisdiction and did not say otherwise prices tax-inclusive (decision 0004).
   */
  pricesIncludeTax: boolean;
  /** Oldest first; the first on or before TABLE_STARTS. */
  rates: readonly RateChange[];
};

type Row = [code: string, name: string, rate: string, ...changes: Array<[effectiveFrom: string, rate: string]>];

const since = (rate: string, effectiveFrom = TABLE_STARTS): RateChange => ({ rate, effectiveFrom });

/**
 * How shelf prices are shown. Consumer prices include VAT and GST in the EU, the UK, Australia and New
 * Zealand (the law asks for the price the consumer pays); in the US and Canada they are shown before
 * sales tax, GST and HST, which are added at the till.
 */
type ShelfPrices = 'include tax' | 'exclude tax';

function build(country: string, kind: TaxKind, shelfPrices: ShelfPrices, rows: Row[]): Jurisdiction[] {
  return rows.map(([code, name, rate, ...changes]) => ({
    code,
    name,
    country,
    kind,
    pricesIncludeTax: shelfPrices === 'include tax',
    rates: [since(rate), ...changes.map(([effectiveFrom, changed]) => since(changed, effectiveFrom))],
  }));
}

const US_LOCAL = 'state rate; local sales taxes not included';
const US_NONE = 'no state sales tax; local sales taxes not included';

const US_STATES: Row[] = [
  ['US-AL', `Alabama (${US_LOCAL})`, '0.04'],
  ['US-AK', `Alaska (${US_NONE})`, '0'],
  ['US-AZ', `Arizona (transaction privilege tax; ${US_LOCAL})`, '0.056'],
  ['US-AR', `Arkansas (${US_LOCAL})`, '0.065'],
  ['US-CA', `California (state rate with the 1% statewide local rate; district taxes not included)`, '0.0725'],
  ['US-CO', `Colorado (${US_LOCAL})`, '0.029'],
  ['US-CT', 'Connecticut (state rate)', '0.0635'],
  ['US-DE', 'Delaware (no sales tax)', '0'],
  // 6% since 2018-10-01; the rise to 6.5% planned for 2025-10-01 was repealed; 7% is enacted for 2026-10-01.
  ['US-DC', 'District of Columbia (district rate)', '0.06', ['2026-10-01', '0.07']],
  ['US-FL', `Florida (${US_LOCAL})`, '0.06'],
  ['US-GA', `Georgia (${US_LOCAL})`, '0.04'],
  ['US-HI', `Hawaii (general excise tax; ${US_LOCAL})`, '0.04'],
  ['US-ID', `Idaho (${US_LOCAL})`, '0.06'],
  ['US-IL', `Illinois (${US_LOCAL})`, '0.0625'],
  ['US-IN', 'Indiana (state rate)', '0.07'],
  ['US-IA', `Iowa (${US_LOCAL})`, '0.06'],
  ['US-KS', `Kansas (${US_LOCAL})`, '0.065'],
  ['US-KY', 'Kentucky (state rate)', '0.06'],
  // 4.45% from 2018-07-01; 5% from 2025-01-01 (Act 11 of the 2024 third extraordinary session).
  ['US-LA', `Louisiana (${US_LOCAL})`, '0.0445', ['2025-01-01', '0.05']],
  ['US-ME', 'Maine (state rate)', '0.055'],
  ['US-MD', 'Maryland (state rate)', '0.06'],
  ['US-MA', 'Massachusetts (state rate)', '0.0625'],
  ['US-MI', 'Michigan (state rate)', '0.06'],
  ['US-MN', `Minnesota (${US_LOCAL})`, '0.06875'],
  ['US-MS', `Mississippi (${US_LOCAL})`, '0.07'],
  ['US-MO', `Missouri (${US_LOCAL})`, '0.04225'],
  ['US-MT', 'Montana (no general sales tax; local resort taxes not included)', '0'],
  ['US-NE', `Nebraska (${US_LOCAL})`, '0.055'],
  ['US-NV', `Nevada (${US_LOCAL})`, '0.0685'],
  ['US-NH', 'New Hampshire (no general sales tax)', '0'],
  ['US-NJ', `New Jersey (${US_LOCAL})`, '0.06625'],
  // Gross receipts tax: 5% from 2023-07-01, 4.875% from 2024-07-01.
  ['US-NM', `New Mexico (gross receipts tax; ${US_LOCAL})`, '0.05', ['2024-07-01', '0.04875']],
  ['US-NY', `New York (${US_LOCAL})`, '0.04'],
  ['US-NC', `North Carolina (${US_LOCAL})`, '0.0475'],
  ['US-ND', `North Dakota (${US_LOCAL})`, '0.05'],
  ['US-OH', `Ohio (${US_LOCAL})`, '0.0575'],
  ['US-OK', `Oklahoma (${US_LOCAL})`, '0.045'],
  ['US-OR', 'Oregon (no sales tax)', '0'],
  ['US-PA', `Pennsylvania (${US_LOCAL})`, '0.06'],
  ['US-RI', 'Rhode Island (state rate)', '0.07'],
  ['US-SC', `South Carolina (${US_LOCAL})`, '0.06'],
  ['US-SD', `South Dakota (${US_LOCAL})`, '0.042'],
  ['US-TN', `Tennessee (${US_LOCAL})`, '0.07'],
  ['US-TX', `Texas (${US_LOCAL})`, '0.0625'],
  ['US-UT', 'Utah (state rate with the 1.25% statewide local rate; other local taxes not included)', '0.061'],
  ['US-VT', `Vermont (${US_LOCAL})`, '0.06'],
  ['US-VA', 'Virginia (state rate with the 1% statewide local rate; regional taxes not included)', '0.053'],
  ['US-WA', `Washington (${US_LOCAL})`, '0.065'],
  ['US-WV', `West Virginia (${US_LOCAL})`, '0.06'],
  ['US-WI', `Wisconsin (${US_LOCAL})`, '0.05'],
  ['US-WY', `Wyoming (${US_LOCAL})`, '0.04'],
];

const EU_MEMBERS: Row[] = [
  ['AT', 'Austria', '0.2'],
  ['BE', 'Belgium', '0.21'],
  ['BG', 'Bulgaria', '0.2'],
  ['HR', 'Croatia', '0.25'],
  ['CY', 'Cyprus', '0.19'],
  ['CZ', 'Czechia', '0.21'],
  ['DK', 'Denmark', '0.25'],
  // 22% from 2024-01-01 (20% before); 24% from 2025-07-01, made permanent in 2025.
  ['EE', 'Estonia', '0.22', ['2025-07-01', '0.24']],
  // 24% from 2013-01-01; 25.5% from 2024-09-01.
  ['FI', 'Finland', '0.24', ['2024-09-01', '0.255']],
  ['FR', 'France', '0.2'],
  ['DE', 'Germany', '0.19'],
  ['GR', 'Greece', '0.24'],
  ['HU', 'Hungary', '0.27'],
  ['IE', 'Ireland', '0.23'],
  ['IT', 'Italy', '0.22'],
  ['LV', 'Latvia', '0.21'],
  ['LT', 'Lithuania', '0.21'],
  // 16% for 2023 only; back to 17% from 2024-01-01.
  ['LU', 'Luxembourg', '0.17'],
  ['MT', 'Malta', '0.18'],
  ['NL', 'Netherlands', '0.21'],
  ['PL', 'Poland', '0.23'],
  ['PT', 'Portugal (mainland; the Azores and Madeira have lower rates)', '0.23'],
  // 19% from 2017-01-01; 21% from 2025-08-01.
  ['RO', 'Romania', '0.19', ['2025-08-01', '0.21']],
  // 20% from 2011-01-01; 23% from 2025-01-01.
  ['SK', 'Slovakia', '0.2', ['2025-01-01', '0.23']],
  ['SI', 'Slovenia', '0.22'],
  ['ES', 'Spain (mainland and the Balearic Islands; not the Canary Islands, Ceuta or Melilla)', '0.21'],
  ['SE', 'Sweden', '0.25'],
];

const GST_ONLY = 'GST only; provincial sales tax not included';
const NO_PST = 'GST; no provincial sales tax';
const NO_TERRITORIAL = 'GST; no territorial sales tax';

const CANADA_GST: Row[] = [
  ['CA-AB', `Alberta (${NO_PST})`, '0.05'],
  ['CA-BC', `British Columbia (${GST_ONLY})`, '0.05'],
  ['CA-MB', `Manitoba (${GST_ONLY})`, '0.05'],
  ['CA-QC', 'Quebec (GST only; QST not included)', '0.05'],
  ['CA-SK', `Saskatchewan (${GST_ONLY})`, '0.05'],
  ['CA-NT', `Northwest Territories (${NO_TERRITORIAL})`, '0.05'],
  ['CA-NU', `Nunavut (${NO_TERRITORIAL})`, '0.05'],
  ['CA-YT', `Yukon (${NO_TERRITORIAL})`, '0.05'],
];

const CANADA_HST: Row[] = [
  ['CA-ON', 'Ontario (HST)', '0.13'],
  ['CA-NB', 'New Brunswick (HST)', '0.15'],
  ['CA-NL', 'Newfoundland and Labrador (HST)', '0.15'],
  ['CA-PE', 'Prince Edward Island (HST)', '0.15'],
  // 15% from 2010-07-01; 14% from 2025-04-01.
  ['CA-NS', 'Nova Scotia (HST)', '0.15', ['2025-04-01', '0.14']],
];

export const JURISDICTIONS: readonly Jurisdiction[] = [
  ...build('US', 'sales_tax', 'exclude tax', US_STATES),
  ...EU_MEMBERS.flatMap((row) => build(row[0], 'vat', 'include tax', [row])),
  ...build('GB', 'vat', 'include tax', [['GB', 'United Kingdom', '0.2']]),
  ...build('CA', 'gst', 'exclude tax', CANADA_GST),
  ...build('CA', 'hst', 'exclude tax', CANADA_HST),
  ...build('AU', 'gst', 'include tax', [['AU', 'Australia', '0.1']]),
  ...build('NZ', 'gst', 'include tax', [['NZ', 'New Zealand', '0.15']]),
].sort((a, b) => a.code.localeCompare(b.code));
