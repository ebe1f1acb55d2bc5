/** Minimal HTTP client for the shop API. */
export const api = {
  async post(path: string, body: unknown): Promise<{ status: number; data: any }> {
    const res = await fetch(`/api${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: res.status, data: await res.json() };
  },
};
