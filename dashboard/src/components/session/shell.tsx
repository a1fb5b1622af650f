import { useEffect, useState, type ReactNode } from 'react';
import { Link, navigate, useLocation } from '../../router.tsx';
import { Button, Kbd } from '../kit/kit.tsx';
import { useShortcutHelp } from '../kit/shortcuts.tsx';
import { can, useSession } from './session.tsx';

const roleNames = { admin: 'Admin', developer: 'Developer', moderator: 'Moderator' } as const;

function NavLink({ href, children }: { href: string; children: ReactNode }) {
  const { pathname } = useLocation();
  const current = pathname === href || pathname.startsWith(`${href}/`);
  return (
    <Link href={href} aria-current={current ? 'page' : undefined}>
      {children}
    </Link>
  );
}

export function Shell({ children }: { children: ReactNode }) {
  const { session, project, selectProject, signOut } = useSession();
  const showHelp = useShortcutHelp();
  const { pathname } = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => setMenuOpen(false), [pathname]);
  if (!session || !project) return null;
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <span className="brand">
          <img src="/favicon.svg" alt="" /> Open Moderation
        </span>
        <Button size="sm" aria-expanded={menuOpen} aria-controls="nav" onClick={() => setMenuOpen((o) => !o)}>
          Menu
        </Button>
      </header>
      <nav id="nav" className={menuOpen ? 'nav open' : 'nav'} aria-label="Main">
        <span className="brand">
          <img src="/favicon.svg" alt="" /> Open Moderation
        </span>
        <div className="field">
          <label htmlFor="project-switcher" className="nav-section" style={{ padding: 0 }}>
            Project
          </label>
          <select id="project-switcher" className="select" value={project.projectId} onChange={(e) => {
            selectProject(e.target.value);
            navigate('/queues');
          }}>
            {session.memberships.map((m) => (
              <option key={m.projectId} value={m.projectId}>
                {m.projectName} ({roleNames[m.role]})
              </option>
            ))}
          </select>
        </div>
        <div className="nav-section">Moderate</div>
        <div className="nav-links">
          <NavLink href="/queues">Review queues</NavLink>
          <NavLink href="/authors">Authors</NavLink>
          <NavLink href="/audit">Audit log</NavLink>
        </div>
        {can.configure(project.role) && (
          <>
            <div className="nav-section">Configure</div>
            <div className="nav-links" aria-label="Configure">
              <NavLink href="/overview">Overview</NavLink>
              <NavLink href="/configure/channels">Channels & policies</NavLink>
              <NavLink href="/configure/playground">Playground</NavLink>
              <NavLink href="/configure/queues">Queues</NavLink>
              <NavLink href="/configure/wordlists">Wordlists</NavLink>
              <NavLink href="/configure/actions">Actions</NavLink>
              <NavLink href="/configure/custom-data">Custom data</NavLink>
              <NavLink href="/configure/webhooks">Webhooks</NavLink>
              <NavLink href="/configure/api-keys">API keys</NavLink>
              {can.manageMembers(project.role) && <NavLink href="/configure/members">Members</NavLink>}
            </div>
          </>
        )}
        <div className="nav-footer">
          <span className="who">{session.user.email}</span>
          <span>{roleNames[project.role]}</span>
          <span className="row">
            <Button size="sm" onClick={showHelp} aria-label="Keyboard shortcuts">
              <Kbd>?</Kbd> Shortcuts
            </Button>
            <Button size="sm" onClick={() => void signOut().then(() => navigate('/sign-in'))}>
              Sign out
            </Button>
          </span>
        </div>
      </nav>
      <main className="main" id="main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}

export function PageHeader({ title, sub, crumbs, actions }: { title: ReactNode; sub?: ReactNode; crumbs?: ReactNode; actions?: ReactNode }) {
  return (
    <div className="page-header">
      <div className="grow">
        {crumbs && <div className="crumbs">{crumbs}</div>}
        <h1>{title}</h1>
        {sub && <div className="sub">{sub}</div>}
      </div>
      {actions && <div className="row">{actions}</div>}
    </div>
  );
}
