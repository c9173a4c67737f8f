import { useDispatch, useSelector } from 'react-redux';
import type { ApiClient } from './api-client';
import { api, type AppDispatch, type RootState } from './store';

export const useAppDispatch = useDispatch.withTypes<AppDispatch>();
export const useAppSelector = useSelector.withTypes<RootState>();

/** The app's API client, for calls whose results only a form needs. */
export function useApi(): ApiClient {
  return api;
}
