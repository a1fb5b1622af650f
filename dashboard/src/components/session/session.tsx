import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { api, ApiError, onUnauthorized, setCsrfToken } from '../../api/client.ts';

export type Role = 'admin' | 'developer' | 'moderator';

export interface Membership {
  projectId: string;
  projectName: string;
  role: Role;
  queueIds: string[] | null;
}

export interface SessionUser {
  id: string;
  email: string;
  name: string;
  mustChangePassword: boolean;
}

export interface Session {
  user: SessionUser;
  csrfToken: string;
  memberships: Membership[];
}

interface SessionState {
  session: Session | null;
  /** undefined while the first check runs. */
  ready: boolean;
  project: Membership | null;
  selectProject: (projectId: string) => void;
  signIn: (email: string, password: string) => Promise<Session>;
  signOut: () => Promise<void>;
  changePassword: (currentPassword: string, newPassword: string) => Promise<void>;
  refresh: () => Promise<void>;
}

const SessionContext = createContext<SessionState | null>(null);
const PROJECT_KEY = 'om.project';

export function useSession(): SessionState {
  const state = useContext(SessionContext);
  if (!state) throw new Error('useSession outside SessionProvider');
  return state;
}

/** The current project's membership; pages under the shell always have one. */
export function useProject(): Membership {
  const { project } = useSession();
  if (!project) throw new Error('no project selected');
  return project;
}

export const can = {
  configure: (role: Role) => role === 'admin' || role === 'developer',
  manageMembers: (role: Role) => role === 'admin',
};

export function SessionProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<Session | null>(null);
  const [ready, setReady] = useState(false);
  const [projectId, setProjectId] = useState<string | null>(() => window.localStorage.getItem(PROJECT_KEY));

  const accept = useCallback((next: Session | null) => {
    setCsrfToken(next?.csrfToken ?? null);
    setSession(next);
  }, []);

  const refresh = useCallback(async () => {
    try {
      accept(await api.get<Session>('/session'));
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 401) throw error;
      accept(null);
    }
  }, [accept]);

  useEffect(() => {
    refresh()
      .catch(() => accept(null))
      .finally(() => setReady(true));
    return onUnauthorized(() => accept(null));
  }, [refresh, accept]);

  const project = useMemo(() => {
    if (!session || session.memberships.length === 0) return null;
    return session.memberships.find((m) => m.projectId === projectId) ?? session.memberships[0]!;
  }, [session, projectId]);

  const value = useMemo<SessionState>(
    () => ({
      session,
      ready,
      project,
      selectProject(id) {
        window.localStorage.setItem(PROJECT_KEY, id);
        setProjectId(id);
      },
      async signIn(email, password) {
        const next = await api.post<Session>('/session', { email, password });
        accept(next);
        return next;
      },
      async signOut() {
        try {
          await api.delete('/session');
        } finally {
          accept(null);
        }
      },
      async changePassword(currentPassword, newPassword) {
        await api.post('/session/password', { currentPassword, newPassword });
        await refresh();
      },
      refresh,
    }),
    [session, ready, project, accept, refresh],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}
