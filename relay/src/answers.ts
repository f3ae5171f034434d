/**
 * What a person may answer on the teachers' page, checked against their own person document (what the
 * app offered them): an ack the document carries, availability for a request it lists as open, an offer
 * for a cover call it lists, and — a manager only — a reminder to a teacher it lists as not having
 * answered. Pure: the answer and the document in, the event's `page` object and its page_answers target
 * out, or a BadRequest saying what is wrong. The app checks again when the event reaches it.
 */

import { BadRequest } from "./http";

export interface Day {
  date: string;
  answer: "yes" | "no" | "hours";
  from?: string | null;
  to?: string | null;
}

type Availability = { action: "availability"; request: number; days: Day[] };
type Remind = { action: "remind"; request: number; teacher: number };
export type Answer = { action: "ack"; ack: string } | Availability | { action: "cover_offer"; call: number } | Remind;

type Doc = Record<string, unknown>;

const DATE = /^(\d{4}-\d{2})-\d{2}$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const MAX_ACK_CHARS = 300;

function objects(value: unknown): Doc[] {
  return Array.isArray(value) ? value.filter((v): v is Doc => typeof v === "object" && v !== null) : [];
}

function id(value: unknown, name: string): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value <= 0) throw new BadRequest(`${name} must be a positive whole number`);
  return value;
}

function realDate(text: string): boolean {
  const ms = Date.parse(`${text}T00:00:00Z`);
  return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === text;
}

function time(value: unknown, name: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== "string" || !TIME.test(value)) throw new BadRequest(`${name} must be HH:MM or null`);
  return value;
}

function day(value: unknown, month: string, closed: Set<string>, i: number): Day {
  if (typeof value !== "object" || value === null) throw new BadRequest(`days[${i}] must be an object`);
  const v = value as Doc;
  const date = typeof v.date === "string" ? v.date : "";
  if (!DATE.test(date) || !realDate(date)) throw new BadRequest(`days[${i}].date must be a date YYYY-MM-DD`);
  if (date.slice(0, 7) !== month) throw new BadRequest(`${date} is not in the request's month ${month}`);
  if (closed.has(date)) throw new BadRequest(`${date} is a closed day`);
  if (v.answer === "yes" || v.answer === "no") {
    if ((v.from ?? null) !== null || (v.to ?? null) !== null) throw new BadRequest(`${date}: from and to go with "hours" only`);
    return { date, answer: v.answer };
  }
  if (v.answer !== "hours") throw new BadRequest(`${date}: answer must be yes, no or hours`);
  const from = time(v.from, `${date}: from`);
  const to = time(v.to, `${date}: to`);
  if (from === null && to === null) throw new BadRequest(`${date}: hours need from, to or both`);
  if (from !== null && to !== null && from >= to) throw new BadRequest(`${date}: from must be before to`);
  return { date, answer: "hours", from, to };
}

function availability(v: Doc, person: Doc): Availability {
  const request = id(v.request, "request");
  const open = objects(person.availability).find((a) => a.request === request);
  if (open === undefined) throw new BadRequest(`request ${request} is not open to you`);
  if (!Array.isArray(v.days) || v.days.length === 0 || v.days.length > 31) throw new BadRequest("days must list 1 to 31 days");
  const month = typeof open.month === "string" ? open.month : "";
  const closed = new Set(Array.isArray(open.closed_days) ? open.closed_days.filter((d): d is string => typeof d === "string") : []);
  const days = v.days.map((d, i) => day(d, month, closed, i));
  if (new Set(days.map((d) => d.date)).size !== days.length) throw new BadRequest("a day is answered twice");
  return { action: "availability", request, days };
}

function reminder(v: Doc, person: Doc): Remind {
  const request = id(v.request, "request");
  const teacher = id(v.teacher, "teacher");
  if (person.role !== "manager") throw new BadRequest("only the manager reminds");
  const manager = (typeof person.manager === "object" && person.manager !== null ? person.manager : {}) as Doc;
  const listed = objects(manager.days).flatMap((d) => objects(d.classrooms)).flatMap((c) => objects(c.unanswered))
    .some((u) => u.request === request && u.teacher === teacher);
  if (!listed) throw new BadRequest(`teacher ${teacher} is not waiting to answer request ${request}`);
  return { action: "remind", request, teacher };
}

/** The answer as the event carries it, and the page_answers target it replaces. */
export function accept(posted: unknown, person: Doc): { page: Answer; target: string } {
  if (typeof posted !== "object" || posted === null || Array.isArray(posted)) throw new BadRequest("an answer is a JSON object");
  const v = posted as Doc;
  switch (v.action) {
    case "ack": {
      const ack = v.ack;
      if (typeof ack !== "string" || ack === "" || ack.length > MAX_ACK_CHARS) throw new BadRequest("ack must be the ack of a shift");
      if (!objects(person.shifts).some((s) => s.ack === ack)) throw new BadRequest("this shift has nothing to acknowledge");
      return { page: { action: "ack", ack }, target: `ack:${ack}` };
    }
    case "availability": {
      const page = availability(v, person);
      return { page, target: `availability:${page.request}` };
    }
    case "cover_offer": {
      const call = id(v.call, "call");
      if (!objects(person.covers).some((c) => c.call === call)) throw new BadRequest(`cover call ${call} was not offered to you`);
      return { page: { action: "cover_offer", call }, target: `cover:${call}` };
    }
    case "remind": {
      const page = reminder(v, person);
      return { page, target: `remind:${page.request}:${page.teacher}` };
    }
    default:
      throw new BadRequest("action must be ack, availability, cover_offer or remind");
  }
}
