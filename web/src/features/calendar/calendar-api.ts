// The calendar's calls: the visible range, a task's new due date (optimistic) and the feed address.
import type { CalendarDto, CalendarFeedDto, CalendarQuery, TaskDto } from '@earshot/contracts';
import { api } from '../../lib/api';

const withTags = api.enhanceEndpoints({ addTagTypes: ['Calendar', 'Tasks'] });

export interface Reschedule {
  id: string;
  dueDate: string;
  /** The range on screen, whose cached answer moves the task at once. */
  range: CalendarQuery;
}

export const calendarApi = withTags.injectEndpoints({
  endpoints: (build) => ({
    calendar: build.query<CalendarDto, CalendarQuery>({
      query: (range) => ({ url: '/calendar', params: range }),
      providesTags: ['Calendar'],
    }),
    rescheduleTask: build.mutation<TaskDto, Reschedule>({
      query: ({ id, dueDate }) => ({ url: `/tasks/${encodeURIComponent(id)}`, method: 'PUT', body: { dueDate } }),
      // Optimistic: the task moves when it is dropped, and back if the server refuses.
      async onQueryStarted({ id, dueDate, range }, { dispatch, queryFulfilled }) {
        const patch = dispatch(
          calendarApi.util.updateQueryData('calendar', range, (draft) => {
            const task = draft.tasks.find((item) => item._id === id);
            if (task) task.due = dueDate;
          }),
        );
        try {
          await queryFulfilled;
        } catch {
          patch.undo();
        }
      },
      invalidatesTags: (_result, error) => (error ? [] : ['Tasks']),
    }),
    calendarFeed: build.mutation<CalendarFeedDto, void>({
      query: () => ({ url: '/calendar/feed', method: 'POST' }),
    }),
  }),
});

export const { useCalendarQuery, useRescheduleTaskMutation, useCalendarFeedMutation } = calendarApi;
