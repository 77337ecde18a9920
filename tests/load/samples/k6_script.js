// The k6 script of the k6 samples (see k6_server.py): 3 closed-model VUs for 8 s against the local server,
// with 503s, 404s, request timeouts, connection resets and refused connections (port CLOSED_PORT).
import http from "k6/http";
import { sleep } from "k6";

export const options = {
  scenarios: { default: { executor: "constant-vus", vus: 3, duration: "8s" } },
  summaryTrendStats: (__ENV.TREND_STATS || "avg,min,med,max,p(90),p(95)").split(","),
};

const BASE = __ENV.BASE;
const CLOSED = __ENV.CLOSED;

export default function () {
  const r = Math.random();
  if (r < 0.8) http.get(`${BASE}/api/item`);
  else if (r < 0.87) http.get(`${BASE}/api/fail`);
  else if (r < 0.9) http.get(`${BASE}/api/missing`);
  else if (r < 0.93) http.get(`${BASE}/api/slow`, { timeout: "300ms" });
  else if (r < 0.96) http.get(`${BASE}/api/reset`);
  else http.get(`http://127.0.0.1:${CLOSED}/api/item`);
  sleep(0.1);
}

export function handleSummary(data) {
  const out = {};
  if (__ENV.DATA_OUT) out[__ENV.DATA_OUT] = JSON.stringify(data, null, 2);
  return out;
}
