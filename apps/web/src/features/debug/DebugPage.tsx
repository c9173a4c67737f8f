import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useAppSelector } from '../../app/hooks';
import { Logo } from '../../components/Logo';
import { debugTools } from './debug-tools';

/** /debug — the diagnostics pages; those needing a login are hidden when signed out. */
export function DebugPage() {
  const signedIn = useAppSelector((s) => s.auth.user !== null);
  const tools = debugTools.filter((tool) => signedIn || !tool.needsLogin);

  return (
    <Box component="main" sx={{ p: 4, maxWidth: 960, mx: 'auto' }}>
      <Logo />
      <Typography variant="h4" component="h1" sx={{ my: 3 }}>
        Diagnostics
      </Typography>
      <Stack
        direction={{ xs: 'column', md: 'row' }}
        spacing={2}
        useFlexGap
        sx={{ flexWrap: 'wrap' }}
      >
        {tools.map((tool) => (
          <Card key={tool.path} sx={{ flex: { md: '1 1 40%' } }}>
            <CardActionArea component={RouterLink} to={tool.path} sx={{ height: '100%' }}>
              <CardContent>
                <Typography variant="h6" component="h2" gutterBottom>
                  {tool.title}
                </Typography>
                <Typography color="text.secondary">{tool.description}</Typography>
              </CardContent>
            </CardActionArea>
          </Card>
        ))}
      </Stack>
    </Box>
  );
}
