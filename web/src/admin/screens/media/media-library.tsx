import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { z } from 'zod';
import { AdminFormView } from '../../components/admin-form';
import { columnsOf, DataTable } from '../../components/data-table';
import { TextField } from '../../components/form-fields';
import { PageHeading } from '../../components/page-heading';
import { RequestView } from '../../components/request-view';
import { useAdminForm } from '../../components/use-admin-form';
import { adminPut, apiPath } from '../../lib/admin-api';
import { thumbnailSrc } from '../../components/image-picker';
import type { MediaItem, MediaLibrary, PackImage } from '../../lib/api-types';
import { fileSize } from '../../../lib/file-size';
import { formatInstant } from '../../lib/labels';
import { useAdminData } from '../../lib/use-admin-data';
import { paths } from '../../paths';
import { MediaTabs } from './media-tabs';
import { altText, UploadForm } from './upload-form';

// The content media library (decision 018): the images staff uploaded for the
// site's pages, newest first, each by the name it was uploaded with, with
// its alt text, size and the file name content refers to it by
// (`image: { file: uploads/….png, alt: … }`); then the content pack's own
// images, which content may name too. Content forms choose from both
// (`ImagePicker`). The page of one image finds it in the list, as there
// is no `GET /media/{key}`.

const MEDIA_PATH = apiPath('media');

/** A small copy of an upload or a pack's image, made by the site's image resizer. */
function Thumbnail({ image, alt }: { image: PackImage; alt: string }) {
  return <img className="media-thumbnail" src={thumbnailSrc(image.fileName)} alt={alt} width={image.width} height={image.height} loading="lazy" />;
}

/** What staff know an upload by: the name it had, else its file name. */
const nameOf = (item: MediaItem) => item.originalName ?? item.fileName;

function CopyFileName({ fileName }: { fileName: string }) {
  const [said, setSaid] = useState('');
  async function copy() {
    try {
      await navigator.clipboard.writeText(fileName);
      setSaid('Copied.');
    } catch {
      setSaid('Copying is not allowed here: select the file name and copy it.');
    }
  }
  return (
    <>
      <code className="media-file">{fileName}</code>{' '}
      <button type="button" className="button button-secondary" aria-label={`Copy the file name ${fileName}`} onClick={() => void copy()}>
        Copy
      </button>
      <span role="status">{said}</span>
    </>
  );
}

const column = columnsOf<MediaItem>();
const columns = column.columns([
  column.display({ id: 'image', header: 'Image', cell: (info) => <Thumbnail image={info.row.original} alt={info.row.original.alt} /> }),
  column.accessor(nameOf, { id: 'name', header: 'Name', cell: (info) => <Link to={paths.mediaItem(info.row.original.key)}>{info.getValue()}</Link> }),
  column.accessor('alt', { header: 'Alt text' }),
  column.accessor('fileName', { header: 'File name', enableSorting: false, cell: (info) => <CopyFileName fileName={info.getValue()} /> }),
  column.accessor('bytes', { header: 'Size', cell: (info) => `${info.row.original.width} × ${info.row.original.height} px, ${fileSize(info.getValue())}` }),
  column.accessor('createdAt', { header: 'Uploaded', cell: (info) => formatInstant(info.getValue()) }),
]);

const packColumn = columnsOf<PackImage>();
const packColumns = packColumn.columns([
  // The first cell heads its row: the file name, as the image has no alt text of its own.
  packColumn.accessor('fileName', { header: 'File name', cell: (info) => <span className="media-file">{info.getValue()}</span> }),
  packColumn.display({ id: 'image', header: 'Image', cell: (info) => <Thumbnail image={info.row.original} alt="" /> }),
  packColumn.accessor('width', { header: 'Size', cell: (info) => `${info.getValue()} × ${info.row.original.height} px` }),
]);

export function MediaScreen() {
  const library = useAdminData<MediaLibrary>(MEDIA_PATH);
  return (
    <>
      <PageHeading>Media</PageHeading>
      <MediaTabs current="images" />
      <h2>Upload an image</h2>
      <UploadForm uploaded={library.retry} />
      <h2>Images</h2>
      <RequestView request={library} what="the images">
        {({ media, limit, pack }) => (
          <>
            <p>{`The newest ${limit} uploaded images are listed, newest first. Content forms choose from these and the content pack’s images.`}</p>
            <DataTable caption="Images" columns={columns} rows={media} rowId={(item) => item.key} empty="No images uploaded yet." />
            <h2>The content pack’s images</h2>
            <DataTable caption="The content pack’s images" columns={packColumns} rows={pack} rowId={(image) => image.fileName} empty="The content pack has no images." />
          </>
        )}
      </RequestView>
    </>
  );
}

function AltForm({ item, saved }: { item: MediaItem; saved: () => void }) {
  const form = useAdminForm({
    schema: z.object({ alt: altText }),
    defaultValues: { alt: item.alt },
    labels: { alt: 'Alt text' },
    send: async (changed) => {
      await adminPut<MediaItem>(apiPath('media', item.key), changed);
      saved();
      return 'Alt text saved.';
    },
  });
  return (
    <AdminFormView form={form} submit="Save the alt text">
      <TextField form={form} name="alt" multiline hint="What the image shows, for people who cannot see it (at most 300 characters)" required />
    </AdminFormView>
  );
}

export function MediaItemScreen() {
  const { key = '' } = useParams();
  const library = useAdminData<MediaLibrary>(MEDIA_PATH);
  const found = library.data?.media.find((item) => item.key === key);
  return (
    <>
      <PageHeading>Image</PageHeading>
      <RequestView request={library} what="the images">
        {() =>
          found ? (
            <>
              <Thumbnail image={found} alt={found.alt} />
              <p className="media-file">{nameOf(found)}</p>
              <p>
                <CopyFileName fileName={found.fileName} />
              </p>
              <AltForm item={found} saved={library.retry} />
            </>
          ) : (
            <p className="refusal">There is no such image.</p>
          )
        }
      </RequestView>
    </>
  );
}
