import { type FormEvent, useState } from "react";
import { Link } from "wouter";
import {
  type ApiKey,
  createApiKeySchema,
  type CreatedApiKey,
  MAX_API_KEYS_PER_ACCOUNT,
} from "../../../../../contract/api-keys.ts";
import { paths } from "../../../../../contract/routes.ts";
import { messageOf } from "@web-api/client.ts";
import { Button } from "../../../components/ui/button.tsx";
import { FormField } from "../../../components/ui/form-field.tsx";
import { QueryError, QueryLoading, QueryState } from "../../../components/ui/query-state.tsx";
import { toast } from "../../../components/ui/use-toast.ts";
import { useUser } from "../../auth/index.ts";
import { useApiKeys, useCreateApiKey, useRevokeApiKey } from "../data/api-keys.ts";
import { CopyButton } from "./copy-button.tsx";

const SIGN_IN_HREF = `${paths.auth}?returnUrl=${encodeURIComponent(paths.developers)}`;

const day = (iso: string) => new Date(iso).toLocaleDateString(undefined, { dateStyle: "medium" });
const moment = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });

/** The new key's secret, once: after this panel is closed (or the page reloaded) nobody can read it again. */
function NewKeyPanel({ created, onDone }: { created: CreatedApiKey; onDone: () => void }) {
  return (
    <div
      role="region"
      aria-labelledby="new-key-title"
      className="space-y-3 rounded-lg border border-amber-300 bg-amber-50 p-4"
      data-testid="new-api-key"
    >
      <h3 id="new-key-title" className="font-semibold text-slate-900">Your new key "{created.name}"</h3>
      <p className="text-sm font-medium text-amber-900" role="note">
        Copy it now: it is not shown again. We keep only a hash of it, so a lost key cannot be recovered; revoke it and
        create another.
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <code
          className="min-w-0 flex-1 select-all break-all rounded-md border border-amber-200 bg-white px-3 py-2 text-sm"
          data-testid="new-api-key-secret"
        >
          {created.key}
        </code>
        <CopyButton text={created.key} label="Copy key" failHint="Select the key and copy it with Ctrl+C or ⌘C." />
      </div>
      <Button type="button" variant="ghost" size="sm" onClick={onDone}>I have copied it</Button>
    </div>
  );
}

function CreateKeyForm({ full, onCreated }: { full: boolean; onCreated: (key: CreatedApiKey) => void }) {
  const create = useCreateApiKey();
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const parsed = createApiKeySchema.safeParse({ name });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? "Give the key a name");
    setError(null);
    create.mutate(parsed.data, {
      onSuccess: (key) => {
        setName("");
        onCreated(key);
      },
      onError: (err) => setError(messageOf(err, "The key could not be created. Try again.")),
    });
  };
  return (
    <form onSubmit={submit} noValidate className="flex flex-wrap items-start gap-3" aria-label="Create an API key">
      <div className="min-w-0 flex-1 basis-64">
        <FormField
          id="api-key-name"
          name="name"
          label="Key name"
          placeholder="e.g. Shop image pipeline"
          hint={full
            ? `You have ${MAX_API_KEYS_PER_ACCOUNT} keys, the most an account can have: revoke one to make another.`
            : "Say where the key is used, so you know which one to revoke later."}
          maxLength={60}
          autoComplete="off"
          value={name}
          error={error ?? undefined}
          onChange={(e) => setName(e.target.value)}
        />
      </div>
      <Button type="submit" className="mt-6" disabled={create.isPending || full}>
        {create.isPending ? "Creating…" : "Create key"}
      </Button>
    </form>
  );
}

function KeyRow({ apiKey, onRevoked }: { apiKey: ApiKey; onRevoked: (id: string) => void }) {
  const revoke = useRevokeApiKey();
  const [asking, setAsking] = useState(false);
  const confirm = () =>
    revoke.mutate(apiKey.id, {
      onSuccess: () => {
        setAsking(false);
        onRevoked(apiKey.id);
        toast({ title: "Key revoked", description: `Requests with "${apiKey.name}" are refused from now on.` });
      },
      onError: (err) =>
        toast({
          title: "Revoke failed",
          description: messageOf(err, "The key could not be revoked. Try again."),
          variant: "destructive",
        }),
    });
  return (
    <li className="py-3" data-testid="api-key-row">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="min-w-0">
          <p className="font-medium text-slate-900">{apiKey.name}</p>
          <p className="mt-0.5 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-600">
            <code className="rounded bg-slate-100 px-1.5 py-0.5" data-testid="api-key-prefix">{apiKey.prefix}…</code>
            <span>Created {day(apiKey.createdAt)}</span>
            <span>Last used: {apiKey.lastUsedAt ? moment(apiKey.lastUsedAt) : "Never"}</span>
          </p>
        </div>
        {!asking && (
          <Button
            type="button"
            variant="ghost"
            size="sm"
            className="text-red-700"
            aria-label={`Revoke ${apiKey.name}`}
            onClick={() => setAsking(true)}
          >
            Revoke
          </Button>
        )}
      </div>
      {asking && (
        <div
          role="alertdialog"
          aria-label={`Confirm revoking ${apiKey.name}`}
          className="mt-2 flex flex-wrap items-center gap-2 rounded-md bg-red-50 p-2 text-sm text-red-900"
        >
          <p className="flex-1 basis-64">
            Revoke "{apiKey.name}"? Every program using it gets 401 from then on; this cannot be undone.
          </p>
          <Button variant="destructive" size="sm" autoFocus onClick={confirm} disabled={revoke.isPending}>
            {revoke.isPending ? "Revoking…" : "Revoke key"}
          </Button>
          <Button variant="ghost" size="sm" onClick={() => setAsking(false)} disabled={revoke.isPending}>
            Keep it
          </Button>
        </div>
      )}
    </li>
  );
}

function ApiKeysManager() {
  const keys = useApiKeys(true);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const list = keys.data?.keys ?? [];
  return (
    <div className="space-y-5">
      <CreateKeyForm full={list.length >= MAX_API_KEYS_PER_ACCOUNT} onCreated={setCreated} />
      {created && <NewKeyPanel created={created} onDone={() => setCreated(null)} />}
      <QueryState
        query={keys}
        what="your API keys"
        isEmpty={list.length === 0}
        empty={<p className="text-sm text-slate-600">No keys yet. Create one above to start using the API.</p>}
      >
        <ul className="divide-y divide-slate-200 border-y border-slate-200" data-testid="api-key-list">
          {list.map((k) => (
            <KeyRow
              key={k.id}
              apiKey={k}
              onRevoked={(id) => setCreated((c) => (c?.id === id ? null : c))}
            />
          ))}
        </ul>
      </QueryState>
    </div>
  );
}

/**
 * "Your API keys": signed in, the list, the create form and each new key's secret once; signed out
 * (and prerendered), the way to sign in and come back here.
 */
export function ApiKeysSection() {
  const { user, isLoading, query } = useUser();
  if (isLoading) return <QueryLoading what="your account" />;
  if (query.isError && query.data === undefined) return <QueryError what="your account" query={query} />;
  if (!user) {
    return (
      <div className="flex flex-wrap items-center justify-between gap-4" data-testid="api-keys-sign-in">
        <p className="max-w-xl text-slate-700">
          Keys belong to an account: calls made with one count against that account's plan. Sign in (or create a free
          account) and you come back here to create your first key.
        </p>
        <Button asChild>
          <Link href={SIGN_IN_HREF}>Sign in to create a key</Link>
        </Button>
      </div>
    );
  }
  return <ApiKeysManager />;
}
