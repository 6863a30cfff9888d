import type { LessonDownload } from '../../generated/LessonDownload';
import { fileSize } from '../../lib/file-size';
import type { LessonVideo as VideoData } from '../../generated/LessonVideo';

/** A lesson's video: the site's own file in the browser's player, or a video host's player. */
export function LessonVideo({ video, title }: { video: VideoData; title: string }) {
  return (
    <div className="lesson-video">
      {video.source === 'file' ? (
        // Lessons' videos have no captions file yet; the lesson's text says what they show.
        // eslint-disable-next-line jsx-a11y/media-has-caption
        <video controls preload="metadata" src={video.url}>
          <a href={video.url}>Download the video</a>
        </video>
      ) : (
        <iframe
          src={video.url} title={`Video: ${title}`} loading="lazy" allow="fullscreen; picture-in-picture" allowFullScreen
          referrerPolicy="strict-origin-when-cross-origin"
        />
      )}
    </div>
  );
}

export function LessonDownloads({ downloads }: { downloads: LessonDownload[] }) {
  if (downloads.length === 0) return null;
  return (
    <section aria-labelledby="lesson-downloads-title" className="lesson-downloads">
      <h2 id="lesson-downloads-title">Downloads</h2>
      <ul>
        {downloads.map((download) => (
          <li key={download.url}>
            <a href={download.url} download>{download.title}</a>
            {download.format && download.bytes !== null ? <span className="lesson-download-about">{` (${download.format}, ${fileSize(download.bytes)})`}</span> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
