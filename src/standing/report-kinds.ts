// The kinds of report the game sends (its reportType) and the names this service keeps them under: read by the
// report route and by the warning mail.
export const REPORT_TYPES = { CHAT: 'chat', USERNAME: 'name', SKIN: 'skin' } as const;
export type ReportKind = (typeof REPORT_TYPES)[keyof typeof REPORT_TYPES];
