import { domainToASCII } from 'node:url';
import { badRequest } from '../domain-error.ts';

/** The form the admin API and its error messages describe. */
export const DOMAIN_HELP =
  "Enter a server's host name, like example.social, with :port only if the block is for one port.";

const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const NAME = new RegExp(`^${LABEL}(?:\\.${LABEL})*$`);
const IPV6 = /^\[[0-9a-f:.]{2,45}\]$/;
const WITH_PORT = /^(.+?)(?::(\d{1,5}))?$/;

/**
 * A domain block's host as stored: trimmed, lowercase, an internationalised name in its ASCII
 * (punycode) form, no trailing dot, `:port` kept when given. A URL, a handle, a path, a
 * wildcard or anything else that is not a host is a 400 saying what to enter.
 */
export function normaliseDomain(input: string): string {
  const text = input.trim().toLowerCase().replace(/\.$/, '');
  if (text === '') throw badRequest(`The server is missing. ${DOMAIN_HELP}`);
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(text) || /[/?#@\s*]/.test(text)) {
    throw badRequest(`"${input.trim().slice(0, 100)}" is not a host name. ${DOMAIN_HELP}`);
  }
  const ipv6 = /^(\[[^\]]*\])(?::(\d{1,5}))?$/.exec(text);
  const parts = ipv6 ?? WITH_PORT.exec(text);
  let host = parts?.[1] ?? '';
  const port = parts?.[2];
  if (!ipv6) host = domainToASCII(host.replace(/\.$/, ''));
  const valid = ipv6 ? IPV6.test(host) : host.length <= 253 && NAME.test(host);
  if (!valid || (port !== undefined && (Number(port) < 1 || Number(port) > 65535))) {
    throw badRequest(`"${input.trim().slice(0, 100)}" is not a host name. ${DOMAIN_HELP}`);
  }
  return port === undefined ? host : `${host}:${Number(port)}`;
}

/** The host name of a stored domain (its port, if any, left off). */
export function hostnameOf(domain: string): string {
  return domain.startsWith('[') ? domain.slice(0, domain.indexOf(']') + 1) : domain.split(':')[0]!;
}
