import type { ReactNode } from 'react';
import { Spinner } from './components/kit/kit.tsx';
import { ShortcutProvider } from './components/kit/shortcuts.tsx';
import { ToastProvider } from './components/kit/toast.tsx';
import { SessionProvider, useSession } from './components/session/session.tsx';
import { Shell } from './components/session/shell.tsx';
import { match, Redirect, useLocation } from './router.tsx';
import { ApiKeysPage } from './routes/api-keys.tsx';
import { AuditPage } from './routes/audit.tsx';
import { AuthorPage } from './routes/author.tsx';
import { AuthorsPage } from './routes/authors.tsx';
import { ChangePasswordPage } from './routes/change-password.tsx';
import { ChannelPage } from './routes/channel.tsx';
import { ChannelsPage } from './routes/channels.tsx';
import { PlaygroundPage } from './routes/playground.tsx';
import { QueueSettingsPage, QueuesSettingsPage } from './routes/queue-settings.tsx';
import { WordlistPage, WordlistsPage } from './routes/wordlists.tsx';
import { ActionsSettingsPage } from './routes/actions-settings.tsx';
import { CustomDataSettingsPage } from './routes/custom-data-settings.tsx';
import { ItemPage } from './routes/item.tsx';
import { MembersPage } from './routes/members.tsx';
import { NotFoundPage } from './routes/not-found.tsx';
import { OverviewPage } from './routes/overview.tsx';
import { QueuePage } from './routes/queue.tsx';
import { QueuesPage } from './routes/queues.tsx';
import { SignInPage } from './routes/sign-in.tsx';
import { WebhookPage } from './routes/webhook.tsx';
import { WebhooksPage } from './routes/webhooks.tsx';

type Page = (params: Record<string, string>) => ReactNode;

// Every page of the shell, in the order they are matched.
const pages: [string, Page][] = [
  ['/queues', () => <QueuesPage />],
  ['/queues/:queueId', (p) => <QueuePage key={p.queueId} queueId={p.queueId!} />],
  ['/queues/:queueId/items/:itemId', (p) => <ItemPage key={p.itemId} queueId={p.queueId!} itemId={p.itemId!} />],
  ['/items/:itemId', (p) => <ItemPage key={p.itemId} queueId={null} itemId={p.itemId!} />],
  ['/authors', () => <AuthorsPage />],
  ['/authors/:authorId', (p) => <AuthorPage key={p.authorId} authorId={p.authorId!} />],
  ['/audit', () => <AuditPage />],
  ['/configure/custom-data', () => <CustomDataSettingsPage />],
  ['/configure/channels', () => <ChannelsPage />],
  ['/configure/channels/:channelId', (p) => <ChannelPage key={p.channelId} channelId={p.channelId!} />],
  ['/configure/playground', () => <PlaygroundPage />],
  ['/configure/queues', () => <QueuesSettingsPage />],
  ['/configure/queues/:queueId', (p) => <QueueSettingsPage key={p.queueId} queueId={p.queueId!} />],
  ['/configure/wordlists', () => <WordlistsPage />],
  ['/configure/wordlists/:wordlistId', (p) => <WordlistPage key={p.wordlistId} wordlistId={p.wordlistId!} />],
  ['/configure/actions', () => <ActionsSettingsPage />],
  ['/overview', () => <OverviewPage />],
  ['/configure/webhooks', () => <WebhooksPage />],
  ['/configure/webhooks/:webhookId', (p) => <WebhookPage key={p.webhookId} webhookId={p.webhookId!} />],
  ['/configure/api-keys', () => <ApiKeysPage />],
  ['/configure/members', () => <MembersPage />],
];

function Routes() {
  const { ready, session, project } = useSession();
  const { pathname, href } = useLocation();
  if (!ready) {
    return (
      <div className="auth-page">
        <Spinner />
      </div>
    );
  }
  if (!session) {
    if (pathname === '/sign-in') return <SignInPage />;
    return <Redirect to={pathname === '/' ? '/sign-in' : `/sign-in?next=${encodeURIComponent(href)}`} />;
  }
  if (session.user.mustChangePassword || pathname === '/account/password') return <ChangePasswordPage />;
  if (pathname === '/' || pathname === '/sign-in') return <Redirect to="/queues" />;
  if (!project) {
    return (
      <div className="auth-page">
        <div className="card auth-card card-body">You are not a member of any project yet. Ask an admin to add you.</div>
      </div>
    );
  }
  for (const [pattern, page] of pages) {
    const params = match(pattern, pathname);
    if (params) return <Shell key={project.projectId}>{page(params)}</Shell>;
  }
  return (
    <Shell>
      <NotFoundPage />
    </Shell>
  );
}

export function App() {
  return (
    <ToastProvider>
      <SessionProvider>
        <ShortcutProvider>
          <Routes />
        </ShortcutProvider>
      </SessionProvider>
    </ToastProvider>
  );
}
