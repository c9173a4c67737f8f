import { useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import Edit from '@mui/icons-material/Edit';
import type { Group } from '@filerunner/protocol';
import { firstErrorMessage } from '../../app/api-client';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useToast } from '../../components/toast-context';
import { GroupDialog } from './GroupDialog';
import { MemberListEditor } from './MemberListEditor';
import {
  useAddGroupMembersMutation,
  useAddMasterMembersMutation,
  useContractUsersQuery,
  useGroupsQuery,
  useRemoveGroupMembersMutation,
  useRemoveGroupMutation,
  useRemoveMasterMembersMutation,
} from './users-api';

const changeFailed = "Sorry, we couldn't change that group. Please try again.";
const MASTER_GROUP = 'Master group';

/** The Groups List tab: the master group's members, then every group with its members. */
export function GroupsListTab({ slug }: { slug: string }) {
  const toast = useToast();
  const lists = { params: { slug } };
  const users = useContractUsersQuery(lists).currentData ?? [];
  const groupsList = useGroupsQuery(lists);
  const groups = groupsList.currentData?.groups ?? [];
  const masterMembers = groupsList.currentData?.master_group.members ?? [];
  const [deleteGroup] = useRemoveGroupMutation();
  const [addGroupMembers] = useAddGroupMembersMutation();
  const [removeGroupMembers] = useRemoveGroupMembersMutation();
  const [addMasterMembers] = useAddMasterMembersMutation();
  const [removeMasterMembers] = useRemoveMasterMembersMutation();
  const [editing, setEditing] = useState<Group | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Group | null>(null);
  const [busy, setBusy] = useState(false);

  /** Runs a change and tells the person how it went (the lists refetch either way). */
  const change = async (work: { unwrap(): Promise<unknown> }, success: string) => {
    try {
      await work.unwrap();
      toast({ severity: 'success', message: success });
      return true;
    } catch (error) {
      toast({ severity: 'error', message: firstErrorMessage(error, changeFailed) });
      return false;
    }
  };

  const removeGroup = async (group: Group) => {
    setBusy(true);
    await change(
      deleteGroup({ params: { slug, groupId: group.id } }),
      `Group ${group.name} deleted`,
    );
    setBusy(false);
    setDeleting(null);
  };

  return (
    <>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 2 }}>
        <Typography color="text.secondary" sx={{ flex: 1 }}>
          Users in a group can exchange packages only within that group; master group members can
          exchange with everybody. A user may belong to several groups.
        </Typography>
        <Button variant="contained" onClick={() => setEditing('new')}>
          Create Group
        </Button>
      </Stack>
      {groupsList.isFetching && !groupsList.currentData && (
        <CircularProgress aria-label="Loading groups" />
      )}
      {groupsList.isError && (
        <Alert severity="error">
          Sorry, we couldn't load the groups of this project. Please try again later.
        </Alert>
      )}
      <GroupCard
        name={MASTER_GROUP}
        description="Visible to everybody in the project, and can exchange packages with everybody."
      >
        <MemberListEditor
          groupName={MASTER_GROUP}
          members={masterMembers}
          users={users}
          onAdd={(ids) =>
            change(
              addMasterMembers({ params: { slug }, body: { master_members: ids } }),
              'Master group updated',
            )
          }
          onRemove={(member) =>
            change(
              removeMasterMembers({ params: { slug }, body: { master_members: [member.id] } }),
              `${member.name} removed from the master group`,
            )
          }
        />
      </GroupCard>
      {groupsList.currentData && groups.length === 0 && (
        <Typography color="text.secondary" sx={{ mt: 2 }}>
          No groups yet. Create one to let its members exchange packages among themselves.
        </Typography>
      )}
      {groups.map((group) => (
        <GroupCard
          key={group.id}
          name={group.name}
          description={group.description}
          actions={
            <>
              <IconButton aria-label={`Edit group ${group.name}`} onClick={() => setEditing(group)}>
                <Edit fontSize="small" />
              </IconButton>
              <IconButton
                color="error"
                aria-label={`Delete group ${group.name}`}
                onClick={() => setDeleting(group)}
              >
                <DeleteOutlined fontSize="small" />
              </IconButton>
            </>
          }
        >
          <MemberListEditor
            groupName={group.name}
            members={group.members}
            users={users}
            onAdd={(ids) =>
              change(
                addGroupMembers({
                  params: { slug, groupId: group.id },
                  body: { group_id: group.id, members: ids },
                }),
                `Group ${group.name} updated`,
              )
            }
            onRemove={(member) =>
              change(
                removeGroupMembers({
                  params: { slug, groupId: group.id },
                  body: { members: [member.id] },
                }),
                `${member.name} removed from ${group.name}`,
              )
            }
          />
        </GroupCard>
      ))}
      {editing && (
        <GroupDialog
          slug={slug}
          group={editing === 'new' ? null : editing}
          users={users}
          onClose={() => setEditing(null)}
          onSaved={() => setEditing(null)}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete group"
        confirmLabel="Delete"
        destructive
        busy={busy}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && void removeGroup(deleting)}
      >
        Delete the group "{deleting?.name}"? Its members stay in the project.
      </ConfirmDialog>
    </>
  );
}

function GroupCard(props: {
  name: string;
  description: string;
  actions?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Paper variant="outlined" sx={{ p: 2, mt: 2 }} role="region" aria-label={props.name}>
      <Stack direction="row" sx={{ alignItems: 'flex-start' }}>
        <Box sx={{ flex: 1 }}>
          <Typography variant="h6" component="h2">
            {props.name}
          </Typography>
          {props.description && (
            <Typography variant="body2" color="text.secondary">
              {props.description}
            </Typography>
          )}
        </Box>
        {props.actions}
      </Stack>
      {props.children}
    </Paper>
  );
}
