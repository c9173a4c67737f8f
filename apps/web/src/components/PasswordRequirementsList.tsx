import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import CheckCircle from '@mui/icons-material/CheckCircle';
import RadioButtonUnchecked from '@mui/icons-material/RadioButtonUnchecked';
import { passwordRequirements } from '@filerunner/protocol';

/** The password rules, each ticked as soon as the typed password meets it. */
export function PasswordRequirementsList({ password }: { password: string }) {
  return (
    <List dense aria-label="Password requirements" disablePadding>
      {passwordRequirements.map((requirement) => {
        const met = requirement.met(password);
        return (
          <ListItem key={requirement.id} disableGutters data-met={met}>
            <ListItemIcon sx={{ minWidth: 32 }}>
              {met ? (
                <CheckCircle fontSize="small" color="success" titleAccess="met" />
              ) : (
                <RadioButtonUnchecked fontSize="small" color="disabled" titleAccess="not met" />
              )}
            </ListItemIcon>
            <ListItemText
              primary={requirement.label}
              slotProps={{ primary: { color: met ? 'success.main' : 'text.secondary' } }}
            />
          </ListItem>
        );
      })}
    </List>
  );
}
