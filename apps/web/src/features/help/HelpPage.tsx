import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import {
  limits,
  packageLimits,
  PIN_LOCK_SECONDS,
  PIN_MAX_FAILURES,
  PIN_TTL_SECONDS,
} from '@filerunner/protocol';
import { Logo } from '../../components/Logo';
import { pinModeMeanings } from '../pin/pin-modes';

function Section(props: { title: string; children: ReactNode }) {
  const id = `help-${props.title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <Box component="section" aria-labelledby={id} sx={{ mt: 4 }}>
      <Typography id={id} variant="h5" component="h2" gutterBottom>
        {props.title}
      </Typography>
      {props.children}
    </Box>
  );
}

function Points({ children }: { children: ReactNode }) {
  return (
    <Box component="ul" sx={{ pl: 3, my: 1, '& li': { mb: 1 } }}>
      {children}
    </Box>
  );
}

const { accessPeriodMaxDays, defaultAccessDays, nameMax } = packageLimits;

/**
 * /help — the product's own help, where the help links lead unless the operator set HELP_URL:
 * sending, receiving, PINs, expiry and the browsers it works in. Public, so that the error page
 * and people without an active project can open it; its numbers come from the same constants
 * the server enforces.
 */
export function HelpPage() {
  return (
    <Box component="main" sx={{ maxWidth: 760, mx: 'auto', p: { xs: 2, sm: 4 } }}>
      <Logo />
      <Typography variant="h4" component="h1" sx={{ mt: 2 }}>
        FileRunner Help
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1 }}>
        FileRunner sends packages of files between people working on the same project. Files go
        straight from your browser to storage and back, in parallel.
      </Typography>

      <Section title="Sending a package">
        <Points>
          <li>
            Open <b>Share</b> (you need permission to send in the project). Choose the project, give
            the package a name (at most {nameMax} characters), pick the recipients and add a message
            if you like.
          </li>
          <li>
            Recipients are the people of your groups in the project. Where the project allows ad-hoc
            recipients, you can also type the email address of someone without an account.
          </li>
          <li>
            Add files or whole folders, then <b>Send Package</b>. The upload panel shows the
            progress; keep the page open until it completes. If you are signed out meanwhile, the
            upload pauses and continues once you sign in again.
          </li>
          <li>
            Names that other systems may refuse are flagged as problem files before you send. Your
            sent packages, who received them and who downloaded them are under <b>Sent</b>, where
            you can also add or remove recipients.
          </li>
        </Points>
      </Section>

      <Section title="Receiving a package">
        <Points>
          <li>
            Packages sent to you arrive in your <b>Inbox</b>, newest first, and are mailed to you.
            The badge counts the packages you have not opened yet; opening one marks it seen.
          </li>
          <li>
            <b>Download All</b> fetches the whole package, or download single files from its list.
            Where the browser lets a page write into a folder, you can unpack the files straight
            into a folder; otherwise the package downloads as one .tar file or as a standard browser
            download.
          </li>
          <li>
            People without an account receive a mail with a link that opens the package page, where
            they can download it without signing in.
          </li>
        </Points>
      </Section>

      <Section title="PIN verification">
        <Typography>
          A package may ask recipients to prove who they are with a PIN of {limits.pinLength}{' '}
          digits, sent by text message to the mobile number the sender gave. Each project sets the
          rule:
        </Typography>
        <Points>
          <li>
            <b>none</b>: {pinModeMeanings.none}
          </li>
          <li>
            <b>all users</b>: {pinModeMeanings.all}
          </li>
          <li>
            <b>adhoc</b>: {pinModeMeanings.adhoc}
          </li>
        </Points>
        <Typography>
          A PIN works for {PIN_TTL_SECONDS / 60} minutes, and only the last one sent works. After{' '}
          {PIN_MAX_FAILURES} wrong PINs in a row the package is locked for {PIN_LOCK_SECONDS / 60}{' '}
          minutes; then request a new PIN.
        </Typography>
      </Section>

      <Section title="Expiry">
        <Points>
          <li>
            Every package has an access period: it can be downloaded from its start to its end. By
            default it starts when sent and ends {defaultAccessDays} days later; it can last at most{' '}
            {accessPeriodMaxDays} days, and files are stored for at most {accessPeriodMaxDays} days
            after upload.
          </li>
          <li>
            In its last {limits.expiringSoonHours} hours a package shows <b>Expiring</b>. Where the
            project allows it, recipients can then extend its expiry.
          </li>
          <li>
            An <b>Expired</b> package is dimmed and can no longer be downloaded; ask the sender to
            send it again.
          </li>
        </Points>
      </Section>

      <Section title="Supported browsers">
        <Points>
          <li>
            FileRunner works in current desktop versions of Google Chrome, Microsoft Edge and
            Mozilla Firefox, with JavaScript and cookies enabled.
          </li>
          <li>
            Downloading straight into a folder needs a browser with a folder picker (Chrome or Edge
            on a desktop); in the others, packages download as a .tar file or as a standard browser
            download.
          </li>
        </Points>
      </Section>

      <Button component={RouterLink} to="/" sx={{ mt: 4 }}>
        Back to FileRunner
      </Button>
    </Box>
  );
}
